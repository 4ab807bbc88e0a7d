import {
  type AgentEvent,
  isLevelEnabled,
  type Logger,
  type LogLevel,
  redactSecrets,
  resolveLogLevel,
} from "@framework/core";

/** Where progress is written: a terminal or a plain stream (standard error by default). */
export interface ProgressStream {
  write(chunk: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/** Options of {@link Progress}. */
export interface ProgressOptions {
  /** Default: standard error, keeping standard output for the answer. */
  stream?: ProgressStream;
  /** A spinner line rewritten in place; default: when the stream is a terminal. */
  live?: boolean;
  /** Milliseconds since some origin; injectable so tests need no clock. */
  now?: () => number;
  /** Lowest log level written as a plain line. Default `FRAMEWORK_LOG_LEVEL`, else `warn`. */
  level?: LogLevel;
  /** Spinner redraw period. Default 100 ms. */
  frameMs?: number;
  /**
   * Off a terminal, write progress (nodes, agent steps, tool calls, {@link Progress.step}) as
   * plain lines. Default false: a piped or CI run shows only results, warnings and errors;
   * `--verbose` turns it on. On a terminal progress always shows.
   */
  events?: boolean;
}

type Level = Exclude<LogLevel, "silent">;

const frames = "⠋⠙⠹⠸⠼⠴⠦⠧⠇⠏";

interface ScopeState {
  /** What the scope does now; a scope that only logged (e.g. `crew`) has none and is not shown. */
  activity?: string;
  tools: string[];
}

function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function shortArguments(args: unknown): string {
  // Native calls carry their arguments as the JSON text the model wrote.
  const text = typeof args === "string" ? args : JSON.stringify(args ?? {});
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * Shows what a run is doing. On a terminal: one spinner line, rewritten in place, naming each
 * active node (or agent) with what it does now (asking the model, running a tool) and the
 * elapsed time, plus a permanent line per tool call, finished node and warning. Elsewhere
 * (pipes, CI, tests): nothing but warnings and errors, or plain timestamped lines with
 * `events: true` (`--verbose`). It is fed by agent events through
 * {@link Progress.agentEvent} and graph events through `nodeStarted`/`nodeFinished`; log lines
 * given to {@link Progress.logger} are only shown (at or above the log level, and warnings on
 * a terminal), never read for meaning.
 */
export class Progress {
  /** Whether the spinner line is drawn. */
  readonly live: boolean;
  readonly #stream: ProgressStream;
  readonly #now: () => number;
  readonly #start: number;
  readonly #level: LogLevel | undefined;
  /** Whether progress lines are written at all: on a terminal, or when asked for. */
  readonly #events: boolean;
  readonly #frameMs: number;
  readonly #scopes = new Map<string, ScopeState>();
  #timer: ReturnType<typeof setInterval> | undefined;
  #frame = 0;
  #spinnerShown = false;
  /** Shown when no scope is active, e.g. while tools are registered. */
  #idle = "starting";

  constructor(options: ProgressOptions = {}) {
    this.#stream = options.stream ?? process.stderr;
    this.live = options.live ?? (this.#stream.isTTY === true && process.env.TERM !== "dumb");
    this.#now = options.now ?? (() => performance.now());
    this.#start = this.#now();
    this.#level = options.level;
    this.#events = this.live || options.events === true;
    this.#frameMs = options.frameMs ?? 100;
    if (this.live) this.#startSpinner();
  }

  #startSpinner(): void {
    this.#timer = setInterval(() => this.#render(), this.#frameMs);
    // The spinner must never keep a finished process alive.
    this.#timer.unref();
  }

  /** A logger whose lines are attributed to `scope` (a node name, `model`, `app`...). */
  logger(scope: string): Logger {
    return {
      debug: (message) => this.#log(scope, "debug", message),
      info: (message) => this.#log(scope, "info", message),
      warn: (message) => this.#log(scope, "warn", message),
      error: (message) => this.#log(scope, "error", message),
    };
  }

  /** A graph node started. */
  nodeStarted(node: string): void {
    // Afresh: a node run again after an interrupt left tool calls that never reported back.
    this.#scopes.set(node, { activity: "starting", tools: [] });
    this.#idle = "working";
    this.#plain(node, `node ${node} started`);
  }

  /** A graph node finished and its update was merged. */
  nodeFinished(node: string): void {
    this.#scopes.delete(node);
    if (this.live) this.#permanent(`✓ ${node} finished at ${this.#elapsed()}`);
    else this.#plain(node, `node ${node} finished`);
  }

  /** An event of the agent working as `scope` (an app's agent, or a crew node's). */
  agentEvent(scope: string, event: AgentEvent): void {
    const state = this.#scope(scope);
    this.#idle = "working";
    switch (event.type) {
      case "step-start":
        state.activity = `asking the model (step ${event.step})`;
        this.#plain(scope, `step ${event.step}: asking the model`);
        break;
      case "tool-call":
        state.tools.push(event.toolName);
        state.activity = `running ${state.tools.join(", ")}`;
        if (this.live) {
          this.#permanent(`  ${scope} → ${event.toolName} ${shortArguments(event.arguments)}`);
        } else {
          this.#plain(scope, `→ ${event.toolName} ${shortArguments(event.arguments)}`);
        }
        break;
      case "tool-result": {
        const index = state.tools.indexOf(event.toolName);
        if (index >= 0) state.tools.splice(index, 1);
        state.activity =
          state.tools.length > 0 ? `running ${state.tools.join(", ")}` : "reading tool results";
        const outcome = event.isError ? "failed" : "done";
        const line = `${event.isError ? "✗" : "✓"} ${event.toolName} ${outcome} in ${formatMs(event.durationMs)}`;
        if (!this.live) this.#plain(scope, line);
        else if (event.isError) this.#permanent(`  ${scope} ${line}`);
        break;
      }
      case "retry": {
        const line = `model busy${event.status === undefined ? "" : ` (HTTP ${event.status})`}, retry ${event.attempt} in ${formatMs(event.delayMs)}`;
        if (this.live) this.#permanent(`! ${scope}: ${line}`);
        else this.#plain(scope, line);
        break;
      }
      case "finish":
        state.activity = "answer ready";
        break;
      case "text-delta":
      case "reasoning-delta":
      case "step-finish":
      case "error":
        break;
    }
  }

  /**
   * A step of `scope`'s work that no agent event describes, e.g. a deep-search report's
   * outline or a chapter's searches: it becomes the scope's activity on the spinner line and
   * a permanent line (or a plain line when progress is shown off a terminal).
   */
  step(scope: string, activity: string): void {
    this.#scope(scope).activity = activity;
    this.#idle = "working";
    if (this.live) this.#permanent(`  ${scope} ${activity}`);
    else this.#plain(scope, activity);
  }

  /** `scope`'s steps are over: it leaves the spinner line. */
  endSteps(scope: string): void {
    this.#scopes.delete(scope);
  }

  /** An explanation shown wherever progress is, e.g. what the offline demo fakes. */
  info(message: string): void {
    if (this.live) this.#permanent(message);
    else if (this.#events) this.#stream.write(`${message}\n`);
  }

  /** A line worth keeping whatever the mode, e.g. the thread a run can be continued on. */
  note(message: string): void {
    if (this.live) this.#permanent(message);
    else this.#stream.write(`${message}\n`);
  }

  /** Stops the spinner and clears its line; call before writing the answer. */
  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
    this.#clearSpinner();
  }

  /**
   * Clears the spinner while `work` runs (a question to the user, which the spinner would
   * overwrite) and draws it again afterwards.
   */
  async pauseWhile<T>(work: () => Promise<T>): Promise<T> {
    const running = this.#timer !== undefined;
    this.stop();
    try {
      return await work();
    } finally {
      if (running) this.#startSpinner();
    }
  }

  #scope(name: string): ScopeState {
    let state = this.#scopes.get(name);
    if (!state) {
      state = { tools: [] };
      this.#scopes.set(name, state);
    }
    return state;
  }

  #log(scope: string, level: Level, raw: string): void {
    if (!isLevelEnabled(level, resolveLogLevel(this.#level))) return;
    const message = redactSecrets(raw);
    if (!this.live) this.#line(scope, `${level.toUpperCase()} ${message}`);
    else if (level === "warn" || level === "error") {
      this.#permanent(`! ${scope}: ${message.split("\n")[0]}`);
    } else this.#permanent(`  ${scope} ${level.toUpperCase()} ${message.split("\n")[0]}`);
  }

  /** A progress line off a terminal, written only when progress is shown there. */
  #plain(scope: string, text: string): void {
    if (!this.live && this.#events) this.#line(scope, text);
  }

  /** A plain timestamped line, for pipes and CI. */
  #line(scope: string, text: string): void {
    const time = `[${this.#elapsed().padStart(7)}]`;
    this.#stream.write(`${time} ${scope} ${text}\n`);
  }

  #elapsed(): string {
    return `${((this.#now() - this.#start) / 1000).toFixed(1)}s`;
  }

  #permanent(line: string): void {
    this.#clearSpinner();
    this.#stream.write(`${line}\n`);
    this.#render();
  }

  #clearSpinner(): void {
    if (!this.#spinnerShown) return;
    this.#stream.write("\r\x1b[2K");
    this.#spinnerShown = false;
  }

  #render(): void {
    if (!this.live || this.#timer === undefined) return;
    this.#frame = (this.#frame + 1) % frames.length;
    const active = [...this.#scopes]
      .flatMap(([name, state]) => (state.activity ? [`${name}: ${state.activity}`] : []))
      .join(" · ");
    const text = `${frames[this.#frame]} ${this.#elapsed()} ${active || this.#idle}`;
    // A pseudo-terminal may report 0 columns; assume the classic width then.
    const width = Math.max(20, (this.#stream.columns || 80) - 1);
    this.#stream.write(`\r\x1b[2K${text.length > width ? `${text.slice(0, width - 1)}…` : text}`);
    this.#spinnerShown = true;
  }
}

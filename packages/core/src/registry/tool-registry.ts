import { stat } from "node:fs/promises";
import { AbortedError } from "../error/aborted-error.js";
import { errorMessage } from "../error/error-message.js";
import { ToolCallRefusedError } from "../error/tool-call-refused-error.js";
import { ToolExecutionError } from "../error/tool-execution-error.js";
import { ToolModuleError } from "../error/tool-module-error.js";
import { ToolNotFoundError } from "../error/tool-not-found-error.js";
import { ToolTimeoutError } from "../error/tool-timeout-error.js";
import { jsonForLog, unloggableArguments } from "../log/json-for-log.js";
import type { Logger } from "../log/logger.js";
import type { ToolDefinition } from "../model/chat-model.js";
import { traceToolExecution } from "../telemetry/agent-tracing.js";
import {
  type AnyPrimaryFunction,
  getToolSpec,
  isPrimaryFunction,
  parseToolArguments,
  type ToolContext,
  type ToolSpec,
} from "../tool/primary-function.js";
import { normalizeToolArguments } from "../tool/tool-arguments.js";
import type { ToolCall } from "../tool/tool-call.js";
import {
  createToolRecord,
  RUNTIME_MODULE_PATH,
  type ToolRecord,
  toolInputJsonSchema,
} from "../tool/tool-record.js";
import { diffLiveTools, isLiveToolSource, type LiveToolSource } from "./live-tool-source.js";
import { type LoadedToolModule, loadRecordedToolModule, loadToolModule } from "./module-loader.js";
import type { RegistryFile, ToolRecords } from "./registry-file.js";

/** A tool module given as an object instead of a specifier, e.g. `import * as tools from "…"`. */
export type ToolModuleObject = Readonly<Record<string, unknown>>;

/** What an Agent's `tools` list may hold. */
export type ToolSource = string | ToolModuleObject | AnyPrimaryFunction | LiveToolSource;

/** The `module_path` recorded for tools given as objects rather than specifiers. */
export const INLINE_MODULE_PATH = "inline";

/** The outcome of one tool call. Failures are values: they go back to the model. */
export type ToolExecution =
  | { ok: true; toolName: string; arguments: Record<string, unknown>; result: unknown }
  | { ok: false; toolName: string; arguments: unknown; error: Error };

/** A module's tools by name. */
type ModuleTools = ReadonlyMap<string, ToolSpec>;

// Indexed once: a file recording many tools of one module would otherwise scan its exports
// once per record.
function indexTools(loaded: LoadedToolModule): ModuleTools {
  const tools = new Map<string, ToolSpec>();
  for (const value of Object.values(loaded.exports)) {
    if (isPrimaryFunction(value)) tools.set(getToolSpec(value).name, getToolSpec(value));
  }
  return tools;
}

interface RegisteredTool {
  spec: ToolSpec;
  record: ToolRecord;
  /** What the model is shown, built on first use (`z.toJSONSchema` is not cheap). */
  definition?: ToolDefinition;
}

/** Options of {@link ToolRegistry}. */
export interface ToolRegistryOptions {
  /** Where records persist. Without it nothing is read or written (an agent's `toolsPath: false`). */
  file?: RegistryFile;
  logger: Logger;
  /** Directory module specifiers resolve from. */
  cwd: string;
  /**
   * Also offer module tools other agents recorded in the registry file, imported from their
   * recorded `module_path` when that names an installed package or a file inside `cwd`.
   * Default `false`: the file is a record, never a source of code.
   */
  adoptRecordedTools?: boolean;
  /** Time limit of one tool call unless the tool sets its own `timeoutMs`. Default 60 000 ms. */
  toolTimeoutMs?: number;
}

/** How long a tool call may run unless the agent or the tool says otherwise. */
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;

/**
 * One agent's tools: exactly those registered from modules and at runtime. The registry file
 * records them; module tools other agents recorded there are offered only when
 * `adoptRecordedTools` is set, and only from an installed package or a file inside the working
 * directory. A model's tool call only ever selects among these; nothing it writes is imported.
 */
export class ToolRegistry {
  private readonly file: RegistryFile | undefined;
  private readonly logger: Logger;
  private readonly cwd: string;
  private readonly adoptRecordedTools: boolean;
  private readonly toolTimeoutMs: number;
  private readonly own = new Map<string, RegisteredTool>();
  private readonly fromFile = new Map<string, RegisteredTool>();
  /** Each live source with the tools read from it last time, by name. */
  private readonly live = new Map<LiveToolSource, Map<string, AnyPrimaryFunction>>();
  private readonly moduleLoads = new Map<string, Promise<ModuleTools | undefined>>();
  /** Runtime records registered since the last write began, by name: the next batch. */
  private readonly unwritten = new Map<string, ToolRecord>();
  /** The loop writing batches of runtime records, while there are any. */
  private writing: Promise<void> | undefined;
  private writeFailure: unknown;
  private fileStamp: number | undefined;

  constructor({
    file,
    logger,
    cwd,
    adoptRecordedTools = false,
    toolTimeoutMs = DEFAULT_TOOL_TIMEOUT_MS,
  }: ToolRegistryOptions) {
    this.toolTimeoutMs = toolTimeoutMs;
    this.file = file;
    this.logger = logger;
    this.cwd = cwd;
    this.adoptRecordedTools = adoptRecordedTools;
  }

  /** Empties the registry file's records (the agent's `resetTools`). */
  async reset(): Promise<void> {
    await this.file?.reset();
    this.fromFile.clear();
    this.fileStamp = undefined;
  }

  /**
   * Registers every tool a module exports (each `primaryFunction` export), logs each record
   * and merges them into the registry file. Also accepts a module object, a single tool, or a
   * {@link LiveToolSource}, whose tools are read again before every `definitions()`.
   */
  async registerModule(source: ToolSource): Promise<ToolRecord[]> {
    if (isLiveToolSource(source)) return this.registerLive(source);
    const loaded = await this.load(source);
    const tools = Object.values(loaded.exports).filter(isPrimaryFunction);
    if (tools.length === 0) {
      throw new ToolModuleError({
        modulePath: loaded.modulePath,
        cwd: this.cwd,
        message: `Tool module "${loaded.modulePath}" exports no tool. Mark tool functions with primaryFunction().`,
      });
    }
    const records = tools.map((tool) => {
      const spec = getToolSpec(tool);
      const record = createToolRecord(spec, {
        modulePath: loaded.modulePath,
        toolType: "module",
        dependencies: loaded.dependencies,
      });
      this.own.set(spec.name, { spec, record });
      this.logger.info(`Registered ${spec.name}: ${JSON.stringify(record)}`);
      return record;
    });
    await this.file?.merge(records);
    this.logger.info(`Completed registration for module ${loaded.modulePath}`);
    return records;
  }

  /**
   * Registers a function as a runtime tool of this agent (`module_path: "runtime"`,
   * `is_runtime: true`). It is usable at once. Its record reaches the registry file in the
   * background, batched: every runtime tool registered in the same tick (and those registered
   * while a write is under way) goes into one locked read-merge-write. The record is durable
   * once {@link settled} resolves, which the agent's next `invoke` awaits; a process that dies
   * before then loses the unwritten records, never the file or records written before.
   */
  registerFunctionTool(tool: AnyPrimaryFunction): ToolRecord {
    if (!isPrimaryFunction(tool)) {
      throw new TypeError("registerFunctionTool expects a function made by primaryFunction()");
    }
    const spec = getToolSpec(tool);
    const record = createToolRecord(spec, {
      modulePath: RUNTIME_MODULE_PATH,
      toolType: "function",
      dependencies: [],
      isRuntime: true,
    });
    this.own.set(spec.name, { spec, record });
    this.logger.info(`Registered tool: ${spec.name} (runtime)`);
    if (this.file) {
      this.unwritten.set(spec.name, record);
      this.writing ??= this.writeUnwritten(this.file);
    }
    return record;
  }

  /** Records of the tools this agent registered itself. */
  records(): ToolRecord[] {
    return [...this.own.values()].map((tool) => tool.record);
  }

  /**
   * Writes the runtime records not yet in the registry file and waits until they are (the
   * explicit flush); rethrows the first background write that failed since the last call.
   */
  async settled(): Promise<void> {
    await this.writing;
    if (this.writeFailure !== undefined) {
      const failure = this.writeFailure;
      this.writeFailure = undefined;
      throw failure;
    }
  }

  /**
   * The tools the model is offered: this agent's own, then (with `adoptRecordedTools`) module
   * tools recorded in the registry file by others that this process may and can import.
   */
  async definitions(): Promise<ToolDefinition[]> {
    for (const source of this.live.keys()) this.syncLive(source);
    await this.refreshFromFile();
    return this.available().map((tool) => {
      tool.definition ??= {
        name: tool.spec.name,
        description: tool.spec.description,
        parameters: toolInputJsonSchema(tool.spec),
      };
      return tool.definition;
    });
  }

  /** Every tool name the model may call. */
  toolNames(): string[] {
    return this.available().map(({ spec }) => spec.name);
  }

  /** Looks a tool up by name among this agent's tools. */
  find(name: string): { spec: ToolSpec; record: ToolRecord } | undefined {
    return this.own.get(name) ?? this.fromFile.get(name);
  }

  /**
   * Runs one tool call: checks the tool is registered and the call's `module_path` (if any)
   * matches its record, validates the arguments (applying defaults), runs the tool within its
   * time limit, and logs its completion. Never throws: every failure (a timeout and an abort
   * included) is returned for the model to see.
   */
  execute(call: ToolCall, context: ToolContext): Promise<ToolExecution> {
    const { tool_name: toolName, arguments: args } = call;
    const traced = { toolName, toolCallId: context.toolCallId, arguments: args };
    return traceToolExecution(traced, () => this.executeUntraced(call, context));
  }

  private async executeUntraced(call: ToolCall, context: ToolContext): Promise<ToolExecution> {
    const tool = this.find(call.tool_name);
    try {
      if (!tool) {
        throw new ToolNotFoundError({ toolName: call.tool_name, availableTools: this.toolNames() });
      }
      if (call.module_path !== undefined && call.module_path !== tool.record.module_path) {
        throw new ToolCallRefusedError({
          toolName: call.tool_name,
          requestedModulePath: String(call.module_path),
          registeredModulePath: tool.record.module_path,
        });
      }
      const args = await parseToolArguments(
        tool.spec,
        normalizeToolArguments(call.arguments, call.tool_name),
      );
      const result = await this.run(tool.spec, args, context);
      const kind = tool.record.tool_type === "function" ? "function" : "module";
      this.logger.info(
        `Completed executing ${kind} tool ${call.tool_name}(${jsonForLog(args, unloggableArguments)})`,
      );
      return { ok: true, toolName: call.tool_name, arguments: args, result };
    } catch (error) {
      return {
        ok: false,
        toolName: call.tool_name,
        arguments: call.arguments,
        error: error instanceof Error ? error : new Error(String(error)),
      };
    }
  }

  /**
   * Runs a tool raced against its time limit and the caller's signal, so the call settles when
   * either fires even if the tool never looks at its signal. The tool's own signal is aborted
   * then too, for a tool that can stop early.
   */
  private async run(
    spec: ToolSpec,
    args: Record<string, unknown>,
    context: ToolContext,
  ): Promise<unknown> {
    const timeoutMs = spec.timeoutMs ?? this.toolTimeoutMs;
    const controller = new AbortController();
    let stop: (error: Error) => void = () => {};
    const stopped = new Promise<never>((_, reject) => {
      stop = reject;
    });
    const onAbort = () => {
      const error = new AbortedError({
        operation: `tool ${spec.name}`,
        cause: context.signal.reason,
      });
      controller.abort(error);
      stop(error);
    };
    const timer = setTimeout(() => {
      const error = new ToolTimeoutError({ toolName: spec.name, timeoutMs });
      controller.abort(error);
      stop(error);
    }, timeoutMs);
    if (context.signal.aborted) onAbort();
    else context.signal.addEventListener("abort", onAbort, { once: true });
    try {
      // Async, so that a tool throwing before it returns a promise is caught here too.
      const running = (async () =>
        spec.execute(args, { ...context, signal: controller.signal }))().catch((error: unknown) => {
        throw new ToolExecutionError({ toolName: spec.name, cause: error });
      });
      return await Promise.race([running, stopped]);
    } finally {
      clearTimeout(timer);
      context.signal.removeEventListener("abort", onAbort);
    }
  }

  private registerLive(source: LiveToolSource): ToolRecord[] {
    this.live.set(source, new Map());
    const records = this.syncLive(source);
    this.logger.info(`Completed registration for live tool source ${source.modulePath}`);
    return records;
  }

  /** Brings this agent's tools in line with what a live source offers now. */
  private syncLive(source: LiveToolSource): ToolRecord[] {
    const previous = this.live.get(source) ?? new Map<string, AnyPrimaryFunction>();
    const { added, removed, current } = diffLiveTools(previous, source.currentTools());
    for (const name of removed) {
      const gone = previous.get(name);
      // Another source may have registered the same name since; that tool stays.
      if (gone && this.own.get(name)?.spec === getToolSpec(gone)) this.own.delete(name);
      this.logger.info(`Removed ${name}: ${source.modulePath} no longer offers it`);
    }
    this.live.set(source, current);
    return added.map((tool) => {
      const spec = getToolSpec(tool);
      const record = createToolRecord(spec, {
        modulePath: source.modulePath,
        toolType: "module",
        dependencies: [],
      });
      this.own.set(spec.name, { spec, record });
      this.logger.info(`Registered ${spec.name}: ${JSON.stringify(record)}`);
      return record;
    });
  }

  private available(): RegisteredTool[] {
    const tools = [...this.own.values()];
    for (const [name, tool] of this.fromFile) if (!this.own.has(name)) tools.push(tool);
    return tools;
  }

  private async load(source: ToolSource): Promise<LoadedToolModule> {
    if (typeof source === "string") return loadToolModule(source, this.cwd);
    if (isPrimaryFunction(source)) {
      return {
        modulePath: INLINE_MODULE_PATH,
        exports: { [source.name]: source },
        dependencies: [],
      };
    }
    return { modulePath: INLINE_MODULE_PATH, exports: { ...source }, dependencies: [] };
  }

  /**
   * Writes batches until no runtime record is left unwritten. It starts a microtask after the
   * first registration, so a loop of registrations lands in one batch; each batch is one
   * locked read-merge-write, so two writers (in this process or another) lose nothing.
   */
  private async writeUnwritten(file: RegistryFile): Promise<void> {
    await Promise.resolve();
    try {
      while (this.unwritten.size > 0) {
        const batch = [...this.unwritten.values()];
        this.unwritten.clear();
        await file.merge(batch).catch((error: unknown) => {
          this.writeFailure ??= error;
        });
      }
    } finally {
      this.writing = undefined;
    }
  }

  private async refreshFromFile(): Promise<void> {
    if (!this.file || !this.adoptRecordedTools) return;
    let stamp: number;
    try {
      stamp = (await stat(this.file.path)).mtimeMs;
    } catch {
      return;
    }
    if (stamp === this.fileStamp) return;
    const stored = await this.file.read();
    this.fileStamp = stamp;
    await this.adoptRecorded(stored);
  }

  private async adoptRecorded(stored: ToolRecords): Promise<void> {
    this.fromFile.clear();
    const importable = Object.values(stored).filter(
      (record) =>
        record.tool_type === "module" &&
        record.module_path !== INLINE_MODULE_PATH &&
        record.module_path !== RUNTIME_MODULE_PATH &&
        !this.own.has(record.tool_name),
    );
    await Promise.all(
      importable.map(async (record) => {
        const spec = (await this.loadRecordedModule(record.module_path))?.get(record.tool_name);
        if (spec) this.fromFile.set(record.tool_name, { spec, record });
      }),
    );
  }

  /** The tools a recorded module exports, by name; imported and indexed once per module. */
  private loadRecordedModule(modulePath: string): Promise<ModuleTools | undefined> {
    let load = this.moduleLoads.get(modulePath);
    if (!load) {
      // A record may name a module this app does not have, or one it must not run: not offered.
      load = loadRecordedToolModule(modulePath, this.cwd).then(indexTools, (error: unknown) => {
        this.logger.warn(
          `Tool module "${modulePath}" recorded in the registry file is not adopted: ${errorMessage(error)}`,
        );
        return undefined;
      });
      this.moduleLoads.set(modulePath, load);
    }
    return load;
  }
}

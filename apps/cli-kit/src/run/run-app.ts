import { type ChatModel, OpenAIChatModel, setDefaultLogger } from "@framework/core";
import { checkModelReachable, validateAppConfig } from "../config/app-config.js";
import { loadEnvFile } from "../env/load-env-file.js";
import { describeFailure, exitCodes } from "../failure/describe-failure.js";
import {
  type OfflineServices,
  offlineNotice,
  sampleDataHeadline,
} from "../offline/offline-mode.js";
import { Progress } from "../progress/progress.js";

/** What every command of an app gets: progress display, cancellation and output. */
export interface AppCommand {
  /**
   * Give agents and nodes `progress.logger(<name>)` for their log lines, and feed their
   * events to `progress.agentEvent(<name>, event)` so their work shows.
   */
  progress: Progress;
  /** Fires on Ctrl-C. */
  signal: AbortSignal;
  /** Writes to standard output, after clearing the progress line. */
  print(text: string): void;
}

/** What an app's `main` gets: a command's means, the model, and whether it is the demo. */
export interface AppRun extends AppCommand {
  /** The chat model: the real service, or the scripted one in offline mode. */
  llm: ChatModel;
  /** Whether this is the offline demo. */
  offline: boolean;
}

/** Options of {@link runApp}. */
export interface RunAppOptions {
  /** Run the offline demo: the services `startOffline` starts, and their scripted model. */
  offline: boolean;
  /**
   * Starts the app's fake services and scripted model, called only when `offline`. Apps
   * load it with a dynamic `import()`, so no test double loads on a real run.
   */
  startOffline(): Promise<OfflineServices>;
  /**
   * Standard output carries machine-readable output (`--json`): the offline demo's "sample
   * data" headline goes to standard error instead of being standard output's first line.
   */
  json?: boolean;
  /** The app's work. Throwing ends the run with a one-line reason and a non-zero code. */
  main(run: AppRun): Promise<void>;
  /**
   * `--verbose`: progress lines off a terminal too, and the framework's INFO log lines;
   * otherwise a piped run writes only warnings and errors to standard error.
   */
  verbose?: boolean;
}

/**
 * Runs a command of a reference app that needs no model (such as deleting a thread): loads
 * `.env` and validates every setting, routes every log line to the progress display, runs
 * `work`, and maps any failure to one line on standard error. Resolves to the process exit
 * code; never rejects.
 */
export async function runCommand(
  work: (command: AppCommand) => Promise<void>,
  options: { verbose?: boolean } = {},
): Promise<number> {
  const progress = new Progress(options.verbose ? { level: "info", events: true } : {});
  const controller = new AbortController();
  const interrupt = () => controller.abort();
  process.once("SIGINT", interrupt);
  try {
    loadEnvFile();
    validateAppConfig();
    setDefaultLogger(progress.logger("app"));
    await work({
      progress,
      signal: controller.signal,
      print: (text) => {
        progress.stop();
        process.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
      },
    });
    return exitCodes.ok;
  } catch (error) {
    progress.stop();
    const failure = describeFailure(error);
    process.stderr.write(`error: ${failure.message}\n`);
    return failure.exitCode;
  } finally {
    progress.stop();
    process.off("SIGINT", interrupt);
  }
}

/**
 * Runs a reference app the same way for all three: as {@link runCommand}, plus the model: it
 * starts the fake services when offline (and says "sample data" on the first line of standard
 * output, or of standard error with `json`), builds the chat model from the environment (a
 * model service that refuses connections fails at once), and runs `main`.
 */
export function runApp(options: RunAppOptions): Promise<number> {
  return runCommand(async (command) => {
    let services: OfflineServices | undefined;
    try {
      if (options.offline) {
        services = await options.startOffline();
        Object.assign(process.env, services.environment);
        (options.json ? process.stderr : process.stdout).write(`${sampleDataHeadline}\n`);
        command.progress.info(offlineNotice);
      }
      const llm = new OpenAIChatModel({ logger: command.progress.logger("model") });
      if (!options.offline) await checkModelReachable(llm.baseURL);
      await options.main({ ...command, llm, offline: options.offline });
    } finally {
      await services?.close();
    }
  }, options);
}

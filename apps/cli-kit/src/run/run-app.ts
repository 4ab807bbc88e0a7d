import { type ChatModel, OpenAIChatModel, setDefaultLogger } from "@framework/core";
import type { FakeLLMReply } from "@framework/testing";
import { checkModelReachable, validateAppConfig } from "../config/app-config.js";
import { loadEnvFile } from "../env/load-env-file.js";
import { describeFailure, exitCodes } from "../failure/describe-failure.js";
import { type FakeServices, offlineNotice, startFakeServices } from "../offline/fake-services.js";
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
  /** Run the offline demo: fake services and `analyst` as the model. */
  offline: boolean;
  /** The app's scripted model for the offline demo. */
  analyst: FakeLLMReply;
  /** The app's work. Throwing ends the run with a one-line reason and a non-zero code. */
  main(run: AppRun): Promise<void>;
  /** Show the framework's INFO log lines (`--verbose`); otherwise warnings and errors only. */
  verbose?: boolean;
}

/** Help text of the apps' `--verbose` option. */
export const verboseOptionHelp =
  "also show the framework's INFO log lines (same as FRAMEWORK_LOG_LEVEL=info)";

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
  const progress = new Progress(options.verbose ? { level: "info" } : {});
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
 * starts the fake services when offline (and says so plainly), builds the chat model from the
 * environment (a model service that refuses connections fails at once), and runs `main`.
 */
export function runApp(options: RunAppOptions): Promise<number> {
  return runCommand(async (command) => {
    let services: FakeServices | undefined;
    try {
      if (options.offline) {
        services = await startFakeServices({ analyst: options.analyst });
        Object.assign(process.env, services.environment);
        command.progress.note(offlineNotice);
      }
      const llm = new OpenAIChatModel({ logger: command.progress.logger("model") });
      if (!options.offline) await checkModelReachable(llm.baseURL);
      await options.main({ ...command, llm, offline: options.offline });
    } finally {
      await services?.close();
    }
  }, options);
}

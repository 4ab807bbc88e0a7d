import {
  AbortedError,
  AuthenticationError,
  ConfigurationError,
  ModelCallError,
} from "@framework/core";

/** How a failed run is reported: one line for standard error, and the process exit code. */
export interface Failure {
  message: string;
  exitCode: number;
}

/** Exit codes of the apps. */
export const exitCodes = {
  ok: 0,
  /** The run failed: the model service, a crashed node, an unexpected error. */
  failed: 1,
  /** A setting is missing or invalid (e.g. no `LLM_API_KEY`), or the command line is wrong. */
  configuration: 2,
  /** Interrupted with Ctrl-C. */
  interrupted: 130,
} as const;

/** The error and its causes, outermost first (a crew wraps a node's error in its own). */
function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let current = error; current !== undefined && chain.length < 10; ) {
    chain.push(current);
    current = current instanceof Error ? current.cause : undefined;
  }
  return chain;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Turns whatever ended a run into the one-line reason the apps print and their exit code.
 * Causes are searched too, since a graph reports a node's failure wrapped in its own error.
 */
export function describeFailure(error: unknown): Failure {
  const chain = causes(error);
  const configuration = chain.find(ConfigurationError.isInstance);
  if (configuration?.setting === "LLM_API_KEY" && !process.env.LLM_API_KEY) {
    return {
      message:
        "LLM_API_KEY is not set. Put LLM_API_KEY=<your key> (and LLM_API_URL, LLM_MODEL for your provider) in a .env file in the current directory, or run with --offline for a demo with a scripted model.",
      exitCode: exitCodes.configuration,
    };
  }
  if (configuration) {
    return { message: oneLine(configuration.message), exitCode: exitCodes.configuration };
  }
  const model = chain.find(ModelCallError.isInstance);
  if (model?.statusCode === 401) {
    return {
      message:
        "the model service rejected the API key (HTTP 401). Check LLM_API_KEY in your .env, and that LLM_API_URL is the provider the key belongs to.",
      exitCode: exitCodes.failed,
    };
  }
  if (model) {
    return {
      message: `the model service failed: ${oneLine(model.message)}`,
      exitCode: exitCodes.failed,
    };
  }
  const authentication = chain.find(AuthenticationError.isInstance);
  if (authentication) {
    return { message: oneLine(authentication.message), exitCode: exitCodes.failed };
  }
  if (chain.some(AbortedError.isInstance)) {
    return { message: "interrupted", exitCode: exitCodes.interrupted };
  }
  const message = error instanceof Error ? error.message : String(error);
  return { message: oneLine(message) || "unknown error", exitCode: exitCodes.failed };
}

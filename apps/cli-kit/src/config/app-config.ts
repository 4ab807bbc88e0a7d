import { connect } from "node:net";
import {
  ConfigurationError,
  logLevels,
  redactUrlCredentials,
  structuredOutputsModes,
} from "@framework/core";
import { z } from "zod";

interface Setting {
  schema: z.ZodType;
  /** What a valid value looks like, in the words of the error line. */
  expected: string;
  /** A secret's value is never shown, not even when it is wrong. */
  secret?: boolean;
}

const httpUrl: Setting = {
  schema: z.url({ protocol: /^https?$/ }),
  expected: "an http:// or https:// URL, e.g. https://api.together.xyz/v1",
};
const milliseconds: Setting = {
  schema: z.coerce.number().int().positive(),
  expected: "a whole number of milliseconds greater than 0, e.g. 30000",
};
const apiKey: Setting = {
  schema: z.string().regex(/^\S+$/),
  expected: "a key without spaces or line breaks",
  secret: true,
};

/** Every variable the apps read, and what it must hold when it is set. */
const settings: Record<string, Setting> = {
  LLM_API_URL: httpUrl,
  LLM_API_KEY: apiKey,
  LLM_MODEL: { schema: z.string().regex(/^\S+$/), expected: "a model name without spaces" },
  LLM_STRUCTURED_OUTPUTS: {
    // Read case-insensitively by OpenAIChatModel.
    schema: z.string().trim().toLowerCase().pipe(z.enum(structuredOutputsModes)),
    expected: `one of ${structuredOutputsModes.join(", ")}`,
  },
  FRAMEWORK_LOG_LEVEL: {
    // Read case-insensitively by core's logger.
    schema: z.string().toLowerCase().pipe(z.enum(logLevels)),
    expected: `one of ${logLevels.join(", ")}`,
  },
  TAVILY_API_URL: httpUrl,
  TAVILY_API_KEY: apiKey,
  COINDESK_API_URL: httpUrl,
  COINDESK_API_KEY: apiKey,
  ARXIV_API_URL: httpUrl,
  ARXIV_TIMEOUT_MS: milliseconds,
  YAHOO_FINANCE_URL: httpUrl,
  YAHOO_TIMEOUT_MS: milliseconds,
  VCI_API_URL: httpUrl,
  VCI_TIMEOUT_MS: milliseconds,
  FRAMEWORK_REDIS_URL: {
    schema: z.url({ protocol: /^rediss?$/ }),
    expected: "a redis:// or rediss:// URL, e.g. redis://127.0.0.1:6379",
  },
  FRAMEWORK_POSTGRES_URL: {
    schema: z.url({ protocol: /^postgres(ql)?$/ }),
    expected: "a postgres:// URL, e.g. postgres://user:password@127.0.0.1:5432/crews",
  },
};

function shown(name: string, value: string, setting: Setting): string {
  if (setting.secret) return `${name}=[REDACTED]`;
  return `${name}=${JSON.stringify(redactUrlCredentials(value))}`;
}

/**
 * Checks every setting the apps read, at start-up, so a typo fails at once instead of deep in
 * a run. Unset variables are left to their defaults. Throws a {@link ConfigurationError} (exit
 * code 2) whose one-line message names the variable, its value (redacted when secret or when it
 * holds credentials) and what is expected.
 */
export function validateAppConfig(env: NodeJS.ProcessEnv = process.env): void {
  for (const [name, setting] of Object.entries(settings)) {
    const value = env[name];
    if (value === undefined || value === "") continue;
    if (setting.schema.safeParse(value).success) continue;
    throw new ConfigurationError({
      setting: name,
      message: `${shown(name, value, setting)} is invalid: expected ${setting.expected}.`,
    });
  }
}

/** How long the reachability check waits for a slow connect before leaving it to the model. */
const connectCheckMs = 5_000;

/**
 * Fails fast when nothing listens at the model service's address (connection refused, or a
 * host name that does not resolve), instead of the model client's retries taking seconds to
 * say so. A slow or filtered address is not judged here: the model's own time limit handles it.
 */
export async function checkModelReachable(baseURL: string): Promise<void> {
  const url = new URL(baseURL);
  const port = Number(url.port) || (url.protocol === "https:" ? 443 : 80);
  const problem = await new Promise<string | undefined>((resolve) => {
    const socket = connect({ host: url.hostname.replace(/^\[|\]$/g, ""), port });
    const done = (outcome: string | undefined) => {
      socket.destroy();
      resolve(outcome);
    };
    socket.setTimeout(connectCheckMs, () => done(undefined));
    socket.once("connect", () => done(undefined));
    socket.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ECONNREFUSED") done("connection refused");
      else if (error.code === "ENOTFOUND") done("host not found");
      else done(undefined);
    });
  });
  if (problem === undefined) return;
  throw new ConfigurationError({
    setting: "LLM_API_URL",
    message: `cannot reach the model service at ${redactUrlCredentials(baseURL)} (${problem}). Check LLM_API_URL in your .env and that the service is running, or run with --offline for a demo with a scripted model.`,
  });
}

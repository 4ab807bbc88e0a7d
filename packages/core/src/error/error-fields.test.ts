import { describe, expect, it } from "vitest";
import { OutputValidationError } from "../agent/output-validation-error.js";
import * as core from "../index.js";
import { registerSecret } from "../log/redact.js";
import { AbortedError } from "./aborted-error.js";
import { AuthenticationError } from "./authentication-error.js";
import { ConfigurationError } from "./configuration-error.js";
import { FrameworkError } from "./framework-error.js";
import { ModelCallError } from "./model-call-error.js";
import { ModelResponseError } from "./model-response-error.js";
import { ModelTimeoutError } from "./model-timeout-error.js";
import { RegistryFileError } from "./registry-file-error.js";
import { TooManyToolCallsError } from "./too-many-tool-calls-error.js";
import { ToolArgumentsError } from "./tool-arguments-error.js";
import { ToolCallDeclinedError } from "./tool-call-declined-error.js";
import { ToolCallRefusedError } from "./tool-call-refused-error.js";
import { ToolExecutionError } from "./tool-execution-error.js";
import { ToolModuleError } from "./tool-module-error.js";
import { ToolNotFoundError } from "./tool-not-found-error.js";
import { ToolTimeoutError } from "./tool-timeout-error.js";

// Tool names, paths, settings, provider messages and model answers come from users, models and
// upstreams, so a secret can land in any field: each error class must pass its fields through
// FrameworkError's redaction, not assign them itself.
const secret = "sk-core-error-fields-7041";
registerSecret(secret);
const planted = `leak-${secret}`;
const redacted = "leak-[REDACTED]";

const model = { provider: planted, modelId: planted, attempts: 2 };

const cases: readonly { error: FrameworkError; fields: Record<string, unknown> }[] = [
  {
    error: new AbortedError({ operation: planted, cause: new Error(planted) }),
    fields: { operation: redacted },
  },
  {
    error: new AuthenticationError({ reason: "expired", message: planted }),
    fields: { reason: "expired" },
  },
  {
    error: new ConfigurationError({ setting: planted, message: planted }),
    fields: { setting: redacted },
  },
  {
    error: new ModelCallError({
      ...model,
      kind: "http",
      statusCode: 400,
      retryable: false,
      upstreamMessage: planted,
      retryAfterMs: 5,
    }),
    fields: {
      kind: "http",
      provider: redacted,
      modelId: redacted,
      statusCode: 400,
      retryable: false,
      attempts: 2,
      upstreamMessage: redacted,
      retryAfterMs: 5,
    },
  },
  {
    error: new ModelResponseError({ ...model, detail: planted }),
    fields: { kind: "invalid_response", provider: redacted, upstreamMessage: redacted },
  },
  {
    error: new ModelTimeoutError({ ...model, timeoutMs: 9 }),
    fields: { kind: "timeout", provider: redacted, modelId: redacted, timeoutMs: 9 },
  },
  {
    error: new OutputValidationError({
      text: planted,
      issues: [{ path: planted, message: planted }],
    }),
    fields: { text: redacted, issues: [{ path: redacted, message: redacted }] },
  },
  {
    error: new RegistryFileError({
      path: planted,
      problem: "corrupt",
      record: planted,
      message: planted,
    }),
    fields: { path: redacted, problem: "corrupt", record: redacted },
  },
  {
    error: new TooManyToolCallsError({ requested: 40, limit: 32 }),
    fields: { requested: 40, limit: 32 },
  },
  {
    error: new ToolArgumentsError({ toolName: planted, issues: [{ path: planted, message: "x" }] }),
    fields: { toolName: redacted, issues: [{ path: redacted, message: "x" }] },
  },
  {
    error: new ToolCallDeclinedError({ toolName: planted, asked: true }),
    fields: { toolName: redacted, asked: true },
  },
  {
    error: new ToolCallRefusedError({
      toolName: planted,
      requestedModulePath: planted,
      registeredModulePath: planted,
    }),
    fields: {
      toolName: redacted,
      requestedModulePath: redacted,
      registeredModulePath: redacted,
    },
  },
  {
    error: new ToolExecutionError({ toolName: planted, cause: new Error(planted) }),
    fields: { toolName: redacted },
  },
  {
    error: new ToolModuleError({ modulePath: planted, cwd: planted, message: planted }),
    fields: { modulePath: redacted, cwd: redacted },
  },
  {
    error: new ToolNotFoundError({ toolName: planted, availableTools: [planted] }),
    fields: { toolName: redacted, availableTools: [redacted] },
  },
  {
    error: new ToolTimeoutError({ toolName: planted, timeoutMs: 3 }),
    fields: { toolName: redacted, timeoutMs: 3 },
  },
];

describe("core's errors", () => {
  it("are each covered here: every error class core exports", () => {
    const classes = Object.entries(core)
      .filter(
        ([, value]) => typeof value === "function" && value.prototype instanceof FrameworkError,
      )
      .map(([name]) => name);
    expect(cases.map(({ error }) => error.name).sort()).toEqual(classes.sort());
  });

  for (const { error, fields } of cases) {
    it(`${error.name} redacts a registered secret in its fields and message`, () => {
      expect(FrameworkError.isInstance(error)).toBe(true);
      expect({ ...error }).toMatchObject(fields);
      for (const name of Object.keys(fields)) {
        expect(JSON.stringify((error as unknown as Record<string, unknown>)[name])).not.toContain(
          secret,
        );
      }
      expect(error.message).not.toContain(secret);
      expect(String(error.cause ?? "")).not.toContain(secret);
    });
  }

  it("leaves a field given as undefined undefined", () => {
    const error = new ModelCallError({ ...model, kind: "network", retryable: true });
    expect(error.statusCode).toBeUndefined();
    expect(error.retryable).toBe(true);
  });
});

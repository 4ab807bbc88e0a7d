import { describe, expect, it } from "vitest";
import { registerSecret } from "../log/redact.js";
import { AbortedError } from "./aborted-error.js";
import { AuthenticationError } from "./authentication-error.js";
import { ConfigurationError } from "./configuration-error.js";
import { ModelCallError } from "./model-call-error.js";
import { ModelResponseError } from "./model-response-error.js";
import { ModelTimeoutError } from "./model-timeout-error.js";
import { OutputValidationError } from "./output-validation-error.js";
import { RegistryFileError } from "./registry-file-error.js";
import { TooManyToolCallsError } from "./too-many-tool-calls-error.js";
import { ToolArgumentsError } from "./tool-arguments-error.js";
import { ToolCallDeclinedError } from "./tool-call-declined-error.js";
import { ToolCallRefusedError } from "./tool-call-refused-error.js";
import { ToolExecutionError } from "./tool-execution-error.js";
import { ToolModuleError } from "./tool-module-error.js";
import { ToolNotFoundError } from "./tool-not-found-error.js";
import { ToolTimeoutError } from "./tool-timeout-error.js";

const secret = "sk-field-secret-4f9a2c7e1b";

// Every structured string field goes through FrameworkError's redaction, whatever it holds.
const errors = (s: string) => [
  new AbortedError({ operation: `call ${s}` }),
  new AuthenticationError({ reason: "invalid_signature", message: `token ${s}` }),
  new ConfigurationError({ setting: `KEY=${s}`, message: "bad" }),
  new ModelCallError({
    kind: "http",
    provider: `p ${s}`,
    modelId: `m ${s}`,
    retryable: false,
    attempts: 1,
    upstreamMessage: `said ${s}`,
  }),
  new ModelResponseError({ provider: `p ${s}`, modelId: "m", attempts: 1, detail: `detail ${s}` }),
  new ModelTimeoutError({ provider: `p ${s}`, modelId: "m", attempts: 1, timeoutMs: 5 }),
  new OutputValidationError({
    text: `answer ${s}`,
    issues: [{ path: "(output)", message: `issue ${s}` }],
  }),
  new RegistryFileError({ path: `/tmp/${s}`, problem: "corrupt", message: "bad" }),
  new ToolArgumentsError({ toolName: `t ${s}`, issues: [{ path: "a", message: `issue ${s}` }] }),
  new ToolCallDeclinedError({ toolName: `t ${s}`, asked: true }),
  new ToolCallRefusedError({
    toolName: `t ${s}`,
    requestedModulePath: `m ${s}`,
    registeredModulePath: "r",
  }),
  new ToolExecutionError({ toolName: `t ${s}`, cause: new Error(`boom ${s}`) }),
  new ToolModuleError({ modulePath: `m ${s}`, cwd: `/c/${s}`, message: "bad" }),
  new ToolNotFoundError({ toolName: `t ${s}`, availableTools: [`a ${s}`] }),
  new ToolTimeoutError({ toolName: `t ${s}`, timeoutMs: 5 }),
  new TooManyToolCallsError({ requested: 3, limit: 2 }),
];

describe("core's error classes", () => {
  it("keep their fields, and redact a registered secret in every one of them", () => {
    registerSecret(secret);
    for (const error of errors(secret)) {
      const fields = JSON.stringify({ ...error });
      expect(fields, error.name).not.toContain(secret);
      expect(error.message, error.name).not.toContain(secret);
      expect(Object.keys({ ...error }).length, `${error.name} has its fields`).toBeGreaterThan(0);
    }
  });

  it("set each field once, read-only", () => {
    const error = new ModelTimeoutError({
      provider: "p",
      modelId: "m",
      attempts: 2,
      timeoutMs: 50,
    });
    expect(error).toMatchObject({
      provider: "p",
      modelId: "m",
      attempts: 2,
      timeoutMs: 50,
      kind: "timeout",
    });
    expect(() => {
      (error as { timeoutMs: number }).timeoutMs = 1;
    }).toThrow(TypeError);
  });
});

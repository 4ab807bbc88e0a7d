import { describe, expect, it } from "vitest";
import { registerSecret } from "../log/redact.js";
import { FrameworkError } from "./framework-error.js";
import { ToolExecutionError } from "./tool-execution-error.js";
import { ToolModuleError } from "./tool-module-error.js";

const secret = "sk-framework-error-test-4711";
registerSecret(secret);

describe("FrameworkError", () => {
  it("redacts its message and its structured fields", () => {
    const error = new ToolModuleError({
      modulePath: `https://host/tools.js?api_key=${secret}`,
      cwd: `/home/${secret}`,
      message: `cannot load ${secret}`,
    });
    expect(error.message).toBe("cannot load [REDACTED]");
    expect(error.modulePath).toBe("https://host/tools.js?api_key=[REDACTED]");
    expect(error.cwd).toBe("/home/[REDACTED]");
  });

  it("redacts the whole cause chain: messages, stacks, fields, non-Error causes", () => {
    const root = Object.assign(new Error(`socket to https://u:${secret}@host failed`), {
      url: `https://host/?token=${secret}`,
    });
    const middle = new Error(`request with ${secret} failed`, { cause: root });
    const error = new ToolExecutionError({ toolName: "t", cause: middle });
    const thrownString = new FrameworkError({ name: "X", message: "m", cause: `raw ${secret}` });
    const chain = [error, middle, root];
    for (const link of chain) {
      expect(JSON.stringify({ ...link, message: link.message, stack: link.stack })).not.toContain(
        secret,
      );
    }
    expect(error.cause).toBe(middle);
    expect(thrownString.cause).toBe("raw [REDACTED]");
  });

  it("replaces a frozen cause it cannot redact by a redacted copy", () => {
    const frozen = Object.freeze(new Error(`frozen ${secret}`));
    const error = new ToolExecutionError({ toolName: "t", cause: frozen });
    expect((error.cause as Error).message).toBe("frozen [REDACTED]");
    expect((error.cause as Error).stack).not.toContain(secret);
  });
});

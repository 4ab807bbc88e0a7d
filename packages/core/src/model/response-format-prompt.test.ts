import { describe, expect, it } from "vitest";
import type { ResponseFormat } from "./chat-model.js";
import {
  responseFormatInstruction,
  withResponseFormatInstruction,
} from "./response-format-prompt.js";

const format: ResponseFormat = {
  type: "json",
  name: "output",
  schema: { type: "object", properties: { ok: { type: "boolean" } } },
  strict: false,
};
const instruction = responseFormatInstruction(format);
const user = { role: "user" as const, content: "Ready?" };

describe("withResponseFormatInstruction", () => {
  it("states the schema in the instruction", () => {
    expect(instruction).toContain(JSON.stringify(format.schema));
  });

  it("appends the instruction to the system prompt, leaving the messages given unchanged", () => {
    const messages = [{ role: "system" as const, content: "Be brief." }, user];
    expect(withResponseFormatInstruction(messages, format)).toEqual([
      { role: "system", content: `Be brief.\n\n${instruction}` },
      user,
    ]);
    expect(messages[0]?.content).toBe("Be brief.");
  });

  it("starts a system prompt when there is none", () => {
    expect(withResponseFormatInstruction([user], format)).toEqual([
      { role: "system", content: instruction },
      user,
    ]);
  });

  it("leaves a system prompt that already holds the instruction as it is", () => {
    const messages = [{ role: "system" as const, content: `Be brief.\n\n${instruction}` }, user];
    expect(withResponseFormatInstruction(messages, format)).toEqual(messages);
  });
});

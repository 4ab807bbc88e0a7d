import { describe, expect, it } from "vitest";
import { readMessageContent } from "./openai-message-content.js";

describe("readMessageContent", () => {
  it("reads a plain string and a null content", () => {
    expect(readMessageContent({ content: "Hi." })).toEqual({
      ok: true,
      content: { text: "Hi.", reasoning: "" },
    });
    expect(readMessageContent({ content: null })).toEqual({
      ok: true,
      content: { text: null, reasoning: "" },
    });
    expect(readMessageContent({})).toEqual({ ok: true, content: { text: null, reasoning: "" } });
  });

  it("joins text parts and keeps Mistral's thinking parts out of the text", () => {
    const read = readMessageContent({
      content: [
        {
          type: "thinking",
          thinking: [
            { type: "text", text: "Paris is " },
            { type: "text", text: "the capital." },
          ],
          closed: true,
        },
        { type: "text", text: "It is " },
        { type: "text", text: "Paris." },
      ],
    });
    expect(read).toEqual({
      ok: true,
      content: { text: "It is Paris.", reasoning: "Paris is the capital." },
    });
  });

  it.each([
    [{ type: "thinking", thinking: "plain thought", signature: "sig" }],
    [{ type: "reasoning", text: "plain thought" }],
    [{ type: "reasoning", reasoning: "plain thought" }],
  ])("reads the reasoning of %j", (part) => {
    expect(readMessageContent({ content: [part, { type: "output_text", text: "A" }] })).toEqual({
      ok: true,
      content: { text: "A", reasoning: "plain thought" },
    });
  });

  it("reads reasoning_content and reasoning fields beside a string content", () => {
    expect(readMessageContent({ content: "A", reasoning_content: "R1" })).toEqual({
      ok: true,
      content: { text: "A", reasoning: "R1" },
    });
    expect(readMessageContent({ content: "A", reasoning: "R2" })).toEqual({
      ok: true,
      content: { text: "A", reasoning: "R2" },
    });
  });

  it("answers with a refusal when there is no other text", () => {
    expect(readMessageContent({ content: null, refusal: "I can't help with that." })).toEqual({
      ok: true,
      content: { text: "I can't help with that.", reasoning: "" },
    });
    expect(readMessageContent({ content: "Sure.", refusal: null })).toEqual({
      ok: true,
      content: { text: "Sure.", reasoning: "" },
    });
    expect(readMessageContent({ content: [{ type: "refusal", refusal: "No." }] })).toEqual({
      ok: true,
      content: { text: "No.", reasoning: "" },
    });
  });

  it("skips parts that carry no answer text", () => {
    expect(
      readMessageContent({
        content: [
          { type: "redacted_thinking", data: "opaque" },
          { type: "image_url", image_url: { url: "data:," } },
          { type: "text", text: "A" },
        ],
      }),
    ).toEqual({ ok: true, content: { text: "A", reasoning: "" } });
  });

  it.each([
    [{ content: 42 }, "content is neither a string nor an array of parts"],
    [{ content: [{ text: "no type" }] }, "a content part has no type"],
    [{ content: [{ type: "text", text: 3 }] }, 'a "text" content part has no text'],
  ])("rejects %j", (message, detail) => {
    expect(readMessageContent(message)).toEqual({ ok: false, detail });
  });
});

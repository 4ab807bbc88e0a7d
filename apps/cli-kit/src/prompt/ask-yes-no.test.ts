import { PassThrough } from "node:stream";
import { AbortedError } from "@framework/core";
import { describe, expect, it } from "vitest";
import { askYesNo } from "./ask-yes-no.js";

function terminal() {
  const input = new PassThrough();
  const output = new PassThrough();
  let shown = "";
  output.setEncoding("utf8").on("data", (chunk: string) => {
    shown += chunk;
  });
  return { input, output, shown: () => shown };
}

describe("askYesNo", () => {
  it("shows the question with its default and reads y or yes as yes", async () => {
    for (const typed of ["y", "YES", " yes "]) {
      const io = terminal();
      const answer = askYesNo("Run search_api?", io);
      io.input.write(`${typed}\n`);
      expect(await answer).toBe(true);
      expect(io.shown()).toBe("Run search_api? [y/N] ");
    }
  });

  it("reads anything else, an empty line included, as no", async () => {
    for (const typed of ["", "n", "no", "sure"]) {
      const io = terminal();
      const answer = askYesNo("Run search_api?", io);
      io.input.write(`${typed}\n`);
      expect(await answer).toBe(false);
    }
  });

  it("gives up with an AbortedError when the input ends or the signal fires", async () => {
    const ended = terminal();
    const unanswered = askYesNo("Run?", ended);
    ended.input.end();
    await expect(unanswered).rejects.toSatisfy(AbortedError.isInstance);

    const controller = new AbortController();
    const cancelled = askYesNo("Run?", { ...terminal(), signal: controller.signal });
    controller.abort();
    await expect(cancelled).rejects.toSatisfy(AbortedError.isInstance);
  });
});

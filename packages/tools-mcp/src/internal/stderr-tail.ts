import { redactSecrets } from "@framework/core";

// Enough to show a stack trace's head or a few log lines, small enough for an error message.
const maxTailChars = 2_000;

/**
 * Keeps the end of what a server process writes to stderr, for error messages: a crash's
 * reason is usually its last lines.
 */
export class StderrTail {
  #tail = "";
  #partial = "";

  /** Adds a chunk; returns the lines it completed. */
  append(chunk: string): string[] {
    this.#tail = (this.#tail + chunk).slice(-maxTailChars);
    const lines = (this.#partial + chunk).split(/\r?\n/);
    this.#partial = lines.pop() ?? "";
    return lines.filter((line) => line.trim() !== "");
  }

  /** The kept end, secrets redacted; undefined when the server wrote nothing. */
  text(): string | undefined {
    const text = this.#tail.trim();
    return text ? redactSecrets(text) : undefined;
  }
}

import { createInterface } from "node:readline";
import { AbortedError } from "@framework/core";

/** Options of {@link askYesNo}. */
export interface AskYesNoOptions {
  /** Where the answer is typed. Default: standard input. */
  input?: NodeJS.ReadableStream;
  /** Where the question is shown. Default: standard error, keeping standard output for the answer. */
  output?: NodeJS.WritableStream;
  /** Stops waiting (with an `AbortedError`). */
  signal?: AbortSignal;
}

/**
 * Asks a yes/no question and resolves to `true` only for `y` or `yes` (any case): anything
 * else, an empty line included, is no. Ctrl-C at the prompt, the signal, or the input ending
 * rejects with an `AbortedError`, so a run never waits on a closed terminal.
 */
export function askYesNo(question: string, options: AskYesNoOptions = {}): Promise<boolean> {
  const { signal } = options;
  const operation = "the question";
  AbortedError.throwIfAborted(signal, operation);
  const output = options.output ?? process.stderr;
  const lines = createInterface({ input: options.input ?? process.stdin, output });
  return new Promise<boolean>((resolve, reject) => {
    let settled = false;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener("abort", abort);
      lines.close();
      outcome();
    };
    const abort = () =>
      finish(() => reject(new AbortedError({ operation, cause: signal?.reason })));
    signal?.addEventListener("abort", abort, { once: true });
    // On a terminal, readline takes Ctrl-C itself; without this the question would stay open.
    lines.on("SIGINT", () => {
      output.write("\n");
      abort();
    });
    lines.on("close", abort);
    lines.question(`${question} [y/N] `, (answer) =>
      finish(() => resolve(/^\s*y(es)?\s*$/i.test(answer))),
    );
  });
}

import { format } from "node:util";
import { observeCapturedLines } from "../log/capturing-logger.js";

/** A place where a known secret showed up. */
export interface SecretLeak {
  /** Where it was written: `stdout`, `stderr`, `console.<method>` or `captured log line`. */
  source: string;
  /** Position of the secret in the guarded list (the secret itself is never repeated). */
  secretIndex: number;
  /** The text around it, with every guarded secret masked. */
  excerpt: string;
}

/** A running guard; see {@link installSecretGuard}. */
export interface SecretGuard {
  /** Every leak seen so far, in order. */
  readonly leaks: readonly SecretLeak[];
  /** Checks text that did not pass through a watched channel, e.g. an error's JSON. */
  check(text: string, source: string): void;
  /** Restores the patched writers and stops observing captured log lines. */
  stop(): void;
}

const consoleMethods = ["log", "info", "warn", "error", "debug", "trace"] as const;
const excerptRadius = 60;

type Write = typeof process.stdout.write;

function chunkText(chunk: unknown): string {
  if (typeof chunk === "string") return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk).toString("utf8");
  return String(chunk);
}

function mask(text: string, secrets: readonly string[]): string {
  let masked = text;
  secrets.forEach((secret, index) => {
    masked = masked.split(secret).join(`<test secret #${index}>`);
  });
  return masked;
}

/**
 * Watches everything a test process writes (standard output and error, the console) and every
 * line a capturing logger records, and notes each place one of `secrets` appears. Nothing is
 * suppressed: output still goes where it went. The vitest setup file every package uses
 * installs one per test file and fails the file if it saw a leak.
 */
export function installSecretGuard(secrets: readonly string[]): SecretGuard {
  const guarded = secrets.filter((secret) => secret.length > 0);
  const leaks: SecretLeak[] = [];

  const check = (text: string, source: string) => {
    guarded.forEach((secret, secretIndex) => {
      const at = text.indexOf(secret);
      if (at < 0) return;
      const around = text.slice(
        Math.max(0, at - excerptRadius),
        at + secret.length + excerptRadius,
      );
      leaks.push({ source, secretIndex, excerpt: mask(around, guarded) });
    });
  };

  const restores: Array<() => void> = [];
  for (const name of ["stdout", "stderr"] as const) {
    const stream = process[name];
    const original = stream.write;
    const patched = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
      check(chunkText(chunk), name);
      return (original as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
    } as Write;
    stream.write = patched;
    restores.push(() => {
      if (stream.write === patched) stream.write = original;
    });
  }
  for (const method of consoleMethods) {
    const original = console[method];
    const patched = (...args: unknown[]) => {
      check(format(...args), `console.${method}`);
      original.apply(console, args);
    };
    console[method] = patched;
    restores.push(() => {
      if (console[method] === patched) console[method] = original;
    });
  }
  restores.push(observeCapturedLines((line) => check(line.message, "captured log line")));

  return {
    leaks,
    check,
    stop: () => {
      for (const restore of restores.splice(0)) restore();
    },
  };
}

/** A failure message listing `leaks` without repeating any secret. */
export function describeSecretLeaks(leaks: readonly SecretLeak[]): string {
  const shown = leaks
    .slice(0, 10)
    .map((leak) => `- test secret #${leak.secretIndex} in ${leak.source}: …${leak.excerpt}…`);
  const more = leaks.length > shown.length ? [`- and ${leaks.length - shown.length} more`] : [];
  return [
    `A known test secret appeared in this file's output ${leaks.length} time(s) (see testSecrets in @framework/testing):`,
    ...shown,
    ...more,
  ].join("\n");
}

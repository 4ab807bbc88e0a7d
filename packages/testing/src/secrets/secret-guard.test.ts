import { afterEach, describe, expect, it } from "vitest";
import { createCapturingLogger } from "../log/capturing-logger.js";
import { describeSecretLeaks, installSecretGuard, type SecretGuard } from "./secret-guard.js";
import { fakeTavilyApiKey, testLlmApiKey, testSecrets } from "./test-secrets.js";

// Secrets made up here, not in testSecrets, so this file's own output never trips the guard
// the setup file installs around it.
const secretA = ["guard", "probe", "key", "a1b2c3d4"].join("-");
const secretB = ["guard", "probe", "key", "e5f6a7b8"].join("-");
let guard: SecretGuard | undefined;

afterEach(() => {
  guard?.stop();
  guard = undefined;
});

describe("installSecretGuard", () => {
  it("notes a secret written to stdout, stderr or the console, without suppressing output", () => {
    const originalWrite = process.stderr.write;
    const originalDebug = console.debug;
    const written: string[] = [];
    // These stand in for the terminal, below the guard's patches.
    process.stderr.write = ((chunk: string) => {
      written.push(chunk);
      return true;
    }) as typeof process.stderr.write;
    console.debug = (...args: unknown[]) => {
      written.push(args.join(" "));
    };
    const watching = installSecretGuard([secretA, secretB]);
    guard = watching;
    try {
      process.stderr.write(`ERROR token ${secretB} leaked\n`);
      process.stderr.write(Buffer.from("nothing to see\n"));
      console.debug("value:", secretA);
    } finally {
      watching.stop();
      process.stderr.write = originalWrite;
      console.debug = originalDebug;
    }
    expect(written).toHaveLength(3);
    expect(watching.leaks.map(({ source, secretIndex }) => [source, secretIndex])).toEqual([
      ["stderr", 1],
      ["console.debug", 0],
    ]);
    expect(watching.leaks[0]?.excerpt).toBe("ERROR token <test secret #1> leaked\n");
  });

  it("sees lines captured by capturing loggers, even ones cleared afterwards", () => {
    guard = installSecretGuard([secretA]);
    const logger = createCapturingLogger();
    logger.warn(`retrying with key ${secretA}`);
    logger.clear();
    logger.info("harmless");
    expect(guard.leaks).toEqual([
      {
        source: "captured log line",
        secretIndex: 0,
        excerpt: "retrying with key <test secret #0>",
      },
    ]);
  });

  it("checks text handed to it and stops watching once stopped", () => {
    guard = installSecretGuard([secretA]);
    guard.check(JSON.stringify({ cause: { header: `Bearer ${secretA}` } }), "error JSON");
    guard.stop();
    createCapturingLogger().info(secretA);
    expect(guard.leaks.map((leak) => leak.source)).toEqual(["error JSON"]);
  });

  it("describes leaks without repeating the secret", () => {
    guard = installSecretGuard([secretA]);
    for (let i = 0; i < 12; i++) guard.check(`line ${i} ${secretA}`, "test");
    const text = describeSecretLeaks(guard.leaks);
    expect(text).not.toContain(secretA);
    expect(text).toContain("12 time(s)");
    expect(text).toContain("- and 2 more");
  });
});

describe("testSecrets", () => {
  it("holds the fake servers' default keys and no empty or duplicate entry", () => {
    expect(testSecrets).toContain(fakeTavilyApiKey);
    expect(testSecrets).toContain(testLlmApiKey);
    expect(new Set(testSecrets).size).toBe(testSecrets.length);
    expect(testSecrets.every((secret) => secret.length >= 6)).toBe(true);
  });
});

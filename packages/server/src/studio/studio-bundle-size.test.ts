import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";

const built = fileURLToPath(new URL("../../dist/studio-page/", import.meta.url));
const isBuilt = existsSync(`${built}index.html`);

/** The budget for what the page runs before its first view draws. */
const INITIAL_JS_BUDGET_GZIPPED = 250 * 1024;

describe.skipIf(!isBuilt && process.env.CI !== "true")("the built studio page", () => {
  it("loads under 250 KB of gzipped JavaScript before its first view", () => {
    const page = readFileSync(`${built}index.html`, "utf8");
    const scripts = [...page.matchAll(/(?:src|href)="\/studio\/(assets\/[^"]+\.js)"/g)].map(
      (match) => match[1]!,
    );
    expect(scripts.length).toBeGreaterThan(0);
    const gzipped = scripts.reduce(
      (sum, script) => sum + gzipSync(readFileSync(`${built}${script}`)).byteLength,
      0,
    );
    expect(gzipped).toBeLessThan(INITIAL_JS_BUDGET_GZIPPED);
  });

  it("names no other origin: no script, style, font or image from anywhere else", () => {
    const page = readFileSync(`${built}index.html`, "utf8");
    expect(page).not.toMatch(/(?:src|href)="(?:https?:)?\/\//);
  });
});

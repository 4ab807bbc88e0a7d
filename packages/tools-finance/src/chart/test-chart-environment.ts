import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FakeServer, startFakeYahooServer } from "@framework/testing";

/** A fake Yahoo server and an empty charts directory, both wired in through the environment. */
export interface ChartTestEnvironment {
  server: FakeServer;
  chartsDir: string;
  /** File names in the charts directory, sorted. */
  files(): Promise<string[]>;
  /** Restores the environment, stops the server and removes the directory. */
  dispose(): Promise<void>;
}

/**
 * Points `YAHOO_FINANCE_URL` and `FRAMEWORK_CHARTS_DIR` at a fresh fake and temp directory,
 * with no `FRAMEWORK_CHART_SUBTITLE`.
 */
export async function setUpChartEnvironment(): Promise<ChartTestEnvironment> {
  const server = await startFakeYahooServer();
  const chartsDir = await mkdtemp(join(tmpdir(), "tools-finance-charts-"));
  const previous = {
    YAHOO_FINANCE_URL: process.env.YAHOO_FINANCE_URL,
    FRAMEWORK_CHARTS_DIR: process.env.FRAMEWORK_CHARTS_DIR,
    FRAMEWORK_CHART_SUBTITLE: process.env.FRAMEWORK_CHART_SUBTITLE,
  };
  delete process.env.FRAMEWORK_CHART_SUBTITLE;
  process.env.YAHOO_FINANCE_URL = server.url;
  process.env.FRAMEWORK_CHARTS_DIR = chartsDir;
  return {
    server,
    chartsDir,
    files: async () => (await readdir(chartsDir)).sort(),
    dispose: async () => {
      for (const [key, value] of Object.entries(previous)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
      await server.close();
      await rm(chartsDir, { recursive: true, force: true });
    },
  };
}

/** Width and height from a PNG's IHDR chunk (bytes 16-23, big-endian). */
export async function pngSize(path: string): Promise<{ width: number; height: number }> {
  const bytes = await readFile(path);
  const signature = "89504e470d0a1a0a";
  if (bytes.subarray(0, 8).toString("hex") !== signature) throw new Error(`${path} is not a PNG`);
  if (bytes.subarray(12, 16).toString("latin1") !== "IHDR") throw new Error("IHDR missing");
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/** Every `<script ... src=...>` of an HTML page; a self-contained page has none. */
export function externalScripts(html: string): string[] {
  return html.match(/<script\b[^>]*\bsrc\s*=[^>]*>/gi) ?? [];
}

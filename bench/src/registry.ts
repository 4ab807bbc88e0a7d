import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type AnyPrimaryFunction,
  primaryFunction,
  silentLogger,
  ToolRegistry,
} from "@framework/core";
import { RegistryFile, writeFileAtomically } from "@framework/core/internal";
import { z } from "zod";
import type { LoadGuardOptions } from "./load-guard.js";
import { measurePaired, type PairedResult, ratioEstimate } from "./paired.js";
import { formatNumber, type MeasuredRow, measuredRow, times } from "./report.js";
import { medianEstimate, type Repetitions, timeAsync } from "./stats.js";
import { target } from "./target.js";

/** Settings of {@link benchRegistry}. */
export interface RegistryBenchOptions {
  /** Tools recorded in the file (9a) and registered at runtime (9b); the issue says 1,000. */
  readonly tools: number;
  readonly repetitions: Repetitions;
  readonly guard: LoadGuardOptions;
}

const parameters = z.object({ a: z.number(), b: z.number() });

/**
 * A tool module of `count` tools inside `dir`, as an app ships one: it imports the framework
 * and zod the way the bench resolves them (the built packages).
 */
async function writeToolModule(dir: string, count: number): Promise<string> {
  const lines = [
    `import { primaryFunction } from ${JSON.stringify(import.meta.resolve("@framework/core"))};`,
    `import { z } from ${JSON.stringify(import.meta.resolve("zod"))};`,
    "const parameters = z.object({ a: z.number(), b: z.number() });",
  ];
  for (let index = 0; index < count; index++) {
    lines.push(
      `export const tool${index} = primaryFunction({ name: "tool${index}", description: ` +
        `"Adds two numbers (${index}).", parameters, returns: "int" }, ({ a, b }) => a + b);`,
    );
  }
  await writeFile(join(dir, "tools.mjs"), `${lines.join("\n")}\n`);
  return "./tools.mjs";
}

/** The least any pick-up can cost: reading and parsing the file. */
async function readAndParse(path: string, count: number): Promise<void> {
  const records = JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
  if (Object.keys(records).length !== count) throw new Error("the floor read a wrong file");
}

function absoluteRow(
  id: string,
  title: string,
  result: PairedResult,
  floorLabel: string,
  targetMs: number,
  note: string,
): MeasuredRow {
  const ours = medianEstimate(result.ours.samples, "ms");
  const n = formatNumber;
  return measuredRow({
    id,
    title,
    ours: { value: ours.value, unit: "ms" },
    reference: { value: result.peer.median, unit: "ms", label: floorLabel },
    ratio: `ours 95% interval ${n(ours.interval.low)}–${n(ours.interval.high)} ms; floor ÷ ours ${times(result.ratio)}`,
    target: target(`< ${targetMs} ms`, "ours", "<", targetMs),
    metrics: { ours, ratio: ratioEstimate(result) },
    load: result.load,
    memory: result.memory,
    note,
    details: { ...result },
  });
}

/**
 * Item 9 (issue #19): the registry file at 1,000 tools. 9a a fresh registry with
 * `adoptRecordedTools` picking up 1,000 module tools another agent recorded (its first
 * `definitions()`: stat, read, parse, resolve and index the module, build the definitions);
 * 9b registering 1,000 runtime tools and waiting until their records are on disk. Each is
 * paired with the floor its work cannot go below (a read and parse; one atomic write).
 */
export async function benchRegistry(options: RegistryBenchOptions): Promise<MeasuredRow[]> {
  const { tools: count, repetitions, guard } = options;
  const dir = await mkdtemp(join(tmpdir(), "bench-registry-"));
  try {
    const modulePath = await writeToolModule(dir, count);
    const recorded = new RegistryFile("templates/tools.json", dir);
    await new ToolRegistry({ file: recorded, logger: silentLogger, cwd: dir }).registerModule(
      modulePath,
    );
    const pickUp = await measurePaired(
      () =>
        timeAsync(async () => {
          const registry = new ToolRegistry({
            file: recorded,
            logger: silentLogger,
            cwd: dir,
            adoptRecordedTools: true,
          });
          const offered = await registry.definitions();
          if (offered.length !== count) throw new Error(`picked up ${offered.length} tools`);
        }),
      () => timeAsync(() => readAndParse(recorded.path, count)),
      { ...repetitions, better: "lower", guard },
    );

    // Made beforehand: creating the functions is the app's work, registering them ours.
    const runtimeTools: AnyPrimaryFunction[] = Array.from({ length: count }, (_, index) =>
      primaryFunction(
        { name: `runtime${index}`, description: "Adds two numbers.", parameters, returns: "int" },
        ({ a, b }) => a + b,
      ),
    );
    let sample = 0;
    // The floor writes what ours wrote last, so both write the same bytes.
    let written = "";
    const register = await measurePaired(
      async () => {
        const file = new RegistryFile(`runtime-${++sample}.json`, dir);
        const registry = new ToolRegistry({ file, logger: silentLogger, cwd: dir });
        const ms = await timeAsync(async () => {
          for (const tool of runtimeTools) registry.registerFunctionTool(tool);
          await registry.settled();
        });
        written = await readFile(file.path, "utf8");
        const stored = Object.keys(JSON.parse(written) as object).length;
        if (stored !== count) throw new Error(`${stored} of ${count} records on disk`);
        await rm(file.path);
        return ms;
      },
      async () => {
        const path = join(dir, `floor-${++sample}.json`);
        const ms = await timeAsync(() => writeFileAtomically(path, written));
        await rm(path);
        return ms;
      },
      { ...repetitions, better: "lower", guard },
    );
    const n = formatNumber(count);
    return [
      absoluteRow(
        "9a",
        `Registry: pick up ${n} recorded tools (adoptRecordedTools)`,
        pickUp,
        "floor: read + parse the file",
        30,
        "a fresh registry's first definitions(): read and parse the file, resolve and index " +
          "the recorded module (already imported by the process), build every definition.",
      ),
      absoluteRow(
        "9b",
        `Registry: register ${n} runtime tools, until on disk`,
        register,
        "floor: one atomic write",
        100,
        "registerFunctionTool in a loop, then settled(): the burst is one locked " +
          "read-merge-write; the floor writes the same bytes once, without lock or read.",
      ),
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

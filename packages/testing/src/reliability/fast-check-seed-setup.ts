// A vitest setup file of every package (see vitest.shared.ts at the workspace root): every
// property test runs from one seed, so a run that failed fails again the same way. The seed is
// `FC_SEED` when set (to replay a failure, or to explore with a new seed), else a fixed one; a
// failing test prints it together with the command that replays it.
import fc from "fast-check";
import { afterEach } from "vitest";

const defaultSeed = 20_251_125;
const fromEnv = process.env.FC_SEED;
const seed = fromEnv === undefined || fromEnv === "" ? defaultSeed : Number(fromEnv);
if (!Number.isSafeInteger(seed)) {
  throw new Error(`FC_SEED must be an integer, got "${fromEnv}"`);
}

fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });

afterEach((context) => {
  if (context.task.result?.state === "fail") {
    console.error(`fast-check seed: ${seed} (replay with FC_SEED=${seed})`);
  }
});

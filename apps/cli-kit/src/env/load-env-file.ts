import { existsSync } from "node:fs";
import { resolve } from "node:path";
import dotenv from "dotenv";

/**
 * Loads `.env` from the working directory into `process.env`, as the specification's apps do
 * at start. Variables already set in the environment win over the file. Returns the file's
 * path, or `undefined` when there is none.
 */
export function loadEnvFile(cwd: string = process.cwd()): string | undefined {
  const path = resolve(cwd, ".env");
  if (!existsSync(path)) return undefined;
  const { error } = dotenv.config({ path, quiet: true });
  if (error) throw new Error(`Cannot read ${path}: ${error.message}`);
  return path;
}

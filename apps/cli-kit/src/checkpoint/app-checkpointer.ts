import { join, resolve } from "node:path";
import { SqliteSaver } from "@framework/checkpoint-sqlite";

/** The environment variable naming the apps' checkpoint database. */
export const checkpointDbVariable = "FRAMEWORK_CHECKPOINT_DB";

/** The apps' checkpoint database when neither `--db` nor the variable names one. */
export const defaultCheckpointDb = join(".framework", "checkpoints.sqlite");

/**
 * Where an app keeps its checkpoints: `db` (the `--db` option), else `FRAMEWORK_CHECKPOINT_DB`,
 * else `.framework/checkpoints.sqlite` under `cwd`; as an absolute path.
 */
export function checkpointDbPath(db?: string, cwd: string = process.cwd()): string {
  const chosen = db || process.env[checkpointDbVariable] || defaultCheckpointDb;
  return resolve(cwd, chosen);
}

/**
 * Opens the app's checkpoint database (see {@link checkpointDbPath}), creating it and its
 * directory when missing. Close it when the run ends.
 */
export function openAppCheckpointer(db?: string): SqliteSaver {
  return new SqliteSaver({ path: checkpointDbPath(db) });
}

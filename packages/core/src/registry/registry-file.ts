import { mkdir, readdir, readFile, rm } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { errorMessage } from "../error/error-message.js";
import { RegistryFileError } from "../error/registry-file-error.js";
import type { ToolRecord } from "../tool/tool-record.js";
import { writeFileAtomically } from "./atomic-write.js";
import { isProcessAlive, withFileLock } from "./file-lock.js";

/** The default registry file, relative to the working directory. */
export const DEFAULT_TOOLS_PATH = "templates/tools.json";

/**
 * Writers in this process queue per file, so they don't poll the cross-process lock against
 * each other.
 */
const queues = new Map<string, Promise<unknown>>();

// `<pid>.<uuid>.tmp` (a write) or `lock.<pid>.<uuid>` (a lock being taken), after the name.
const leftoverPattern = /^(?:lock\.)?(\d+)\.[0-9a-f]{8}-[0-9a-f-]{27}(?:\.tmp)?$/;

/** Tool records keyed by tool name, as stored in the registry file. */
export type ToolRecords = Record<string, ToolRecord>;

/**
 * The JSON file in which tool records persist. Every change is a read-merge-write under a
 * cross-process lock, written to a temporary file and renamed into place, so concurrent
 * agents and processes never lose each other's records and a crash never leaves a torn file.
 */
export class RegistryFile {
  /** Absolute path of the file. */
  readonly path: string;

  constructor(path: string = DEFAULT_TOOLS_PATH, cwd: string = process.cwd()) {
    this.path = resolve(cwd, path);
  }

  /** The stored records; an absent file holds none. Throws if the file is corrupt. */
  async read(): Promise<ToolRecords> {
    let text: string;
    try {
      text = await readFile(this.path, "utf8");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
      throw new RegistryFileError({
        path: this.path,
        problem: "io",
        message: `Cannot read tool registry file ${this.path}: ${errorMessage(error)}`,
        cause: error,
      });
    }
    return this.#parse(text);
  }

  /** Adds or replaces `records` (by tool name), keeping every other stored record. */
  async merge(records: readonly ToolRecord[]): Promise<ToolRecords> {
    return this.#update((stored) => {
      for (const record of records) stored[record.tool_name] = record;
      return stored;
    });
  }

  /** Empties the stored records. A corrupt file is still refused, not silently replaced. */
  async reset(): Promise<void> {
    await this.#update(() => ({}));
  }

  async #update(change: (stored: ToolRecords) => ToolRecords): Promise<ToolRecords> {
    const previous = queues.get(this.path) ?? Promise.resolve();
    const run = previous.then(async () => {
      await this.#createFolder();
      return withFileLock(this.path, async () => {
        const next = change(await this.read());
        await this.#writeAtomically(`${JSON.stringify(next, null, 2)}\n`);
        await this.#removeLeftovers();
        return next;
      });
    });
    const settled = run.catch(() => {});
    queues.set(this.path, settled);
    void settled.finally(() => {
      if (queues.get(this.path) === settled) queues.delete(this.path);
    });
    return run;
  }

  async #createFolder(): Promise<void> {
    const folder = dirname(this.path);
    try {
      await mkdir(folder, { recursive: true });
    } catch (error) {
      throw new RegistryFileError({
        path: this.path,
        problem: "io",
        message: `Cannot create the folder ${folder} of tool registry file ${this.path}: ${errorMessage(error)}`,
        cause: error,
      });
    }
  }

  async #writeAtomically(text: string): Promise<void> {
    try {
      await writeFileAtomically(this.path, text);
    } catch (error) {
      throw new RegistryFileError({
        path: this.path,
        problem: "io",
        message: `Cannot write tool registry file ${this.path}: ${errorMessage(error)}`,
        cause: error,
      });
    }
  }

  /**
   * Deletes the temporary files of writers that were killed mid-write (named after the file,
   * their pid and a uuid), so crashes do not litter the registry's folder. Runs under the lock.
   */
  async #removeLeftovers(): Promise<void> {
    const dir = dirname(this.path);
    const prefix = `${basename(this.path)}.`;
    let names: string[];
    try {
      names = await readdir(dir);
    } catch {
      return;
    }
    await Promise.all(
      names.map(async (name) => {
        if (!name.startsWith(prefix)) return;
        const pid = leftoverPattern.exec(name.slice(prefix.length))?.[1];
        if (pid === undefined || Number(pid) === process.pid || isProcessAlive(Number(pid))) return;
        await rm(join(dir, name), { force: true });
      }),
    );
  }

  #parse(text: string): ToolRecords {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw this.#corrupt(`is not valid JSON (${errorMessage(error)})`, { cause: error });
    }
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      throw this.#corrupt("does not hold a JSON object keyed by tool name");
    }
    for (const [name, record] of Object.entries(value)) {
      if (record === null || typeof record !== "object" || Array.isArray(record)) {
        const got = record === null ? "null" : Array.isArray(record) ? "an array" : typeof record;
        throw this.#corrupt(`holds ${got} as record ${JSON.stringify(name)}, not an object`, {
          record: name,
        });
      }
    }
    return value as ToolRecords;
  }

  #corrupt(
    problem: string,
    { cause, record }: { cause?: unknown; record?: string } = {},
  ): RegistryFileError {
    return new RegistryFileError({
      path: this.path,
      problem: "corrupt",
      message: `Tool registry file ${this.path} ${problem}. It was left untouched: repair it, or delete it to start from an empty registry.`,
      ...(record === undefined ? {} : { record }),
      cause,
    });
  }
}

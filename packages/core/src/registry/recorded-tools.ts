import { stat } from "node:fs/promises";
import { errorMessage } from "../error/error-message.js";
import type { Logger } from "../log/logger.js";
import type { ExecutableTool } from "../tool/execute-tool.js";
import { getToolSpec, isPrimaryFunction, type ToolSpec } from "../tool/primary-function.js";
import { INLINE_MODULE_PATH, RUNTIME_MODULE_PATH } from "../tool/tool-record.js";
import { type LoadedToolModule, loadRecordedToolModule } from "./module-loader.js";
import type { RegistryFile, ToolRecords } from "./registry-file.js";

/** A module's tools by name. */
type ModuleTools = ReadonlyMap<string, ToolSpec>;

// Indexed once: a file recording many tools of one module would otherwise scan its exports
// once per record.
function indexTools(loaded: LoadedToolModule): ModuleTools {
  const tools = new Map<string, ToolSpec>();
  for (const value of Object.values(loaded.exports)) {
    if (isPrimaryFunction(value)) tools.set(getToolSpec(value).name, getToolSpec(value));
  }
  return tools;
}

/**
 * The module tools other agents recorded in the registry file, for an agent that opted in
 * (`adoptRecordedTools`): read again whenever the file changed, each recorded module imported
 * once, and only from an installed package or a file inside the working directory. Runtime
 * and inline records name no module to import, so they are never adopted.
 */
export class RecordedTools {
  readonly #file: RegistryFile;
  readonly #cwd: string;
  readonly #logger: Logger;
  readonly #adopted = new Map<string, ExecutableTool>();
  readonly #moduleLoads = new Map<string, Promise<ModuleTools | undefined>>();
  /** The file's modification time when it was last read. */
  #fileStamp: number | undefined;

  constructor({ file, cwd, logger }: { file: RegistryFile; cwd: string; logger: Logger }) {
    this.#file = file;
    this.#cwd = cwd;
    this.#logger = logger;
  }

  /** The tools adopted at the last {@link refresh}, by name. */
  get tools(): ReadonlyMap<string, ExecutableTool> {
    return this.#adopted;
  }

  /** Forgets what was read, so the next {@link refresh} reads the file again. */
  forget(): void {
    this.#adopted.clear();
    this.#fileStamp = undefined;
  }

  /** Reads the file again if it changed, adopting the recorded tools whose names `own` lacks. */
  async refresh(own: ReadonlySet<string>): Promise<void> {
    let stamp: number;
    try {
      stamp = (await stat(this.#file.path)).mtimeMs;
    } catch {
      return;
    }
    if (stamp === this.#fileStamp) return;
    const stored = await this.#file.read();
    this.#fileStamp = stamp;
    await this.#adopt(stored, own);
  }

  async #adopt(stored: ToolRecords, own: ReadonlySet<string>): Promise<void> {
    this.#adopted.clear();
    const importable = Object.values(stored).filter(
      (record) =>
        record.tool_type === "module" &&
        record.module_path !== INLINE_MODULE_PATH &&
        record.module_path !== RUNTIME_MODULE_PATH &&
        !own.has(record.tool_name),
    );
    await Promise.all(
      importable.map(async (record) => {
        const spec = (await this.#loadModule(record.module_path))?.get(record.tool_name);
        if (spec) this.#adopted.set(record.tool_name, { spec, record });
      }),
    );
  }

  /** The tools a recorded module exports, by name; imported and indexed once per module. */
  #loadModule(modulePath: string): Promise<ModuleTools | undefined> {
    let load = this.#moduleLoads.get(modulePath);
    if (!load) {
      // A record may name a module this app does not have, or one it must not run: not offered.
      load = loadRecordedToolModule(modulePath, this.#cwd).then(indexTools, (error: unknown) => {
        this.#logger.warn(
          `Tool module "${modulePath}" recorded in the registry file is not adopted: ${errorMessage(error)}`,
        );
        return undefined;
      });
      this.#moduleLoads.set(modulePath, load);
    }
    return load;
  }
}

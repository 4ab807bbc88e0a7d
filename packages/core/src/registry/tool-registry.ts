import { ToolModuleError } from "../error/tool-module-error.js";
import type { Logger } from "../log/logger.js";
import type { ToolDefinition } from "../model/chat-model.js";
import type { ExecutableTool } from "../tool/execute-tool.js";
import {
  type AnyPrimaryFunction,
  getToolSpec,
  isPrimaryFunction,
  type ToolSpec,
} from "../tool/primary-function.js";
import {
  createToolRecord,
  INLINE_MODULE_PATH,
  RUNTIME_MODULE_PATH,
  type ToolRecord,
  toolInputJsonSchema,
} from "../tool/tool-record.js";
import { diffLiveTools, isLiveToolSource, type LiveToolSource } from "./live-tool-source.js";
import { type LoadedToolModule, loadToolModule } from "./module-loader.js";
import { RecordedTools } from "./recorded-tools.js";
import type { RegistryFile } from "./registry-file.js";
import { RuntimeRecordWriter } from "./runtime-record-writer.js";

/** A tool module given as an object instead of a specifier, e.g. `import * as tools from "…"`. */
export type ToolModuleObject = Readonly<Record<string, unknown>>;

/** What an Agent's `tools` list may hold. */
export type ToolSource = string | ToolModuleObject | AnyPrimaryFunction | LiveToolSource;

/** Options of {@link ToolRegistry}. */
export interface ToolRegistryOptions {
  /** Where records persist. Without it nothing is read or written (an agent's `toolsPath: false`). */
  file?: RegistryFile;
  logger: Logger;
  /** Directory module specifiers resolve from. */
  cwd: string;
  /**
   * Also offer module tools other agents recorded in the registry file, imported from their
   * recorded `module_path` when that names an installed package or a file inside `cwd`.
   * Default `false`: the file is a record, never a source of code.
   */
  adoptRecordedTools?: boolean;
}

/**
 * One agent's tools: exactly those registered from modules and at runtime. The registry file
 * records them; module tools other agents recorded there are offered only when
 * `adoptRecordedTools` is set, and only from an installed package or a file inside the working
 * directory. A model's tool call only ever selects among these; nothing it writes is imported.
 */
export class ToolRegistry {
  readonly #file: RegistryFile | undefined;
  readonly #logger: Logger;
  readonly #cwd: string;
  readonly #own = new Map<string, ExecutableTool>();
  /** What the model is shown of each tool, built on first use (`z.toJSONSchema` is not cheap). */
  readonly #definitions = new WeakMap<ToolSpec, ToolDefinition>();
  /** Each live source with the tools read from it last time, by name. */
  readonly #live = new Map<LiveToolSource, Map<string, AnyPrimaryFunction>>();
  /** Set when the agent adopts what others recorded in the file. */
  readonly #recorded: RecordedTools | undefined;
  /** Set when there is a file to write runtime records to. */
  readonly #runtimeRecords: RuntimeRecordWriter | undefined;

  constructor({ file, logger, cwd, adoptRecordedTools = false }: ToolRegistryOptions) {
    this.#file = file;
    this.#logger = logger;
    this.#cwd = cwd;
    this.#recorded =
      file && adoptRecordedTools ? new RecordedTools({ file, cwd, logger }) : undefined;
    this.#runtimeRecords = file && new RuntimeRecordWriter(file);
  }

  /** Empties the registry file's records (the agent's `resetTools`). */
  async reset(): Promise<void> {
    await this.#file?.reset();
    this.#recorded?.forget();
  }

  /**
   * Registers every tool a module exports (each `primaryFunction` export), logs each record
   * and merges them into the registry file. Also accepts a module object, a single tool, or a
   * {@link LiveToolSource}, whose tools are read again before every `definitions()`.
   */
  async registerModule(source: ToolSource): Promise<ToolRecord[]> {
    if (isLiveToolSource(source)) return this.#registerLive(source);
    const loaded = await this.#load(source);
    const tools = Object.values(loaded.exports).filter(isPrimaryFunction);
    if (tools.length === 0) {
      throw new ToolModuleError({
        modulePath: loaded.modulePath,
        cwd: this.#cwd,
        message: `Tool module "${loaded.modulePath}" exports no tool. Mark tool functions with primaryFunction().`,
      });
    }
    const records = tools.map((tool) => {
      const spec = getToolSpec(tool);
      const record = createToolRecord(spec, {
        modulePath: loaded.modulePath,
        toolType: "module",
        dependencies: loaded.dependencies,
      });
      this.#own.set(spec.name, { spec, record });
      this.#logger.info(`Registered ${spec.name}: ${JSON.stringify(record)}`);
      return record;
    });
    await this.#file?.merge(records);
    this.#logger.info(`Completed registration for module ${loaded.modulePath}`);
    return records;
  }

  /**
   * Registers a function as a runtime tool of this agent (`module_path: "runtime"`,
   * `is_runtime: true`). It is usable at once. Its record reaches the registry file in the
   * background, batched: every runtime tool registered in the same tick (and those registered
   * while a write is under way) goes into one locked read-merge-write. The record is durable
   * once {@link settled} resolves, which the agent's next `invoke` awaits; a process that dies
   * before then loses the unwritten records, never the file or records written before.
   */
  registerFunctionTool(tool: AnyPrimaryFunction): ToolRecord {
    if (!isPrimaryFunction(tool)) {
      throw new TypeError("registerFunctionTool expects a function made by primaryFunction()");
    }
    const spec = getToolSpec(tool);
    const record = createToolRecord(spec, {
      modulePath: RUNTIME_MODULE_PATH,
      toolType: "function",
      dependencies: [],
      isRuntime: true,
    });
    this.#own.set(spec.name, { spec, record });
    this.#logger.info(`Registered tool: ${spec.name} (runtime)`);
    this.#runtimeRecords?.queue(record);
    return record;
  }

  /** Records of the tools this agent registered itself. */
  records(): ToolRecord[] {
    return [...this.#own.values()].map((tool) => tool.record);
  }

  /**
   * Writes the runtime records not yet in the registry file and waits until they are (the
   * explicit flush); rethrows the first background write that failed since the last call.
   */
  async settled(): Promise<void> {
    await this.#runtimeRecords?.settled();
  }

  /**
   * The tools the model is offered: this agent's own, then (with `adoptRecordedTools`) module
   * tools recorded in the registry file by others that this process may and can import.
   */
  async definitions(): Promise<ToolDefinition[]> {
    for (const source of this.#live.keys()) this.#syncLive(source);
    await this.#recorded?.refresh(new Set(this.#own.keys()));
    return this.#available().map(({ spec }) => {
      let definition = this.#definitions.get(spec);
      if (!definition) {
        definition = {
          name: spec.name,
          description: spec.description,
          parameters: toolInputJsonSchema(spec),
        };
        this.#definitions.set(spec, definition);
      }
      return definition;
    });
  }

  /** Every tool name the model may call. */
  toolNames(): string[] {
    return this.#available().map(({ spec }) => spec.name);
  }

  /** Looks a tool up by name among this agent's tools. */
  find(name: string): { spec: ToolSpec; record: ToolRecord } | undefined {
    return this.#own.get(name) ?? this.#recorded?.tools.get(name);
  }

  #registerLive(source: LiveToolSource): ToolRecord[] {
    this.#live.set(source, new Map());
    const records = this.#syncLive(source);
    this.#logger.info(`Completed registration for live tool source ${source.modulePath}`);
    return records;
  }

  /** Brings this agent's tools in line with what a live source offers now. */
  #syncLive(source: LiveToolSource): ToolRecord[] {
    const previous = this.#live.get(source) ?? new Map<string, AnyPrimaryFunction>();
    const { added, removed, current } = diffLiveTools(previous, source.currentTools());
    for (const name of removed) {
      const gone = previous.get(name);
      // Another source may have registered the same name since; that tool stays.
      if (gone && this.#own.get(name)?.spec === getToolSpec(gone)) this.#own.delete(name);
      this.#logger.info(`Removed ${name}: ${source.modulePath} no longer offers it`);
    }
    this.#live.set(source, current);
    return added.map((tool) => {
      const spec = getToolSpec(tool);
      const record = createToolRecord(spec, {
        modulePath: source.modulePath,
        toolType: "module",
        dependencies: [],
      });
      this.#own.set(spec.name, { spec, record });
      this.#logger.info(`Registered ${spec.name}: ${JSON.stringify(record)}`);
      return record;
    });
  }

  #available(): ExecutableTool[] {
    const tools = [...this.#own.values()];
    for (const [name, tool] of this.#recorded?.tools ?? []) {
      if (!this.#own.has(name)) tools.push(tool);
    }
    return tools;
  }

  async #load(source: ToolSource): Promise<LoadedToolModule> {
    if (typeof source === "string") return loadToolModule(source, this.#cwd);
    if (isPrimaryFunction(source)) {
      return {
        modulePath: INLINE_MODULE_PATH,
        exports: { [source.name]: source },
        dependencies: [],
      };
    }
    return { modulePath: INLINE_MODULE_PATH, exports: { ...source }, dependencies: [] };
  }
}

export { type FileLockOptions, withFileLock } from "./file-lock.js";
export {
  isLiveToolSource,
  type LiveToolSource,
  liveToolSourceMarker,
} from "./live-tool-source.js";
export { type LoadedToolModule, loadToolModule, resolveToolModule } from "./module-loader.js";
export { DEFAULT_TOOLS_PATH, RegistryFile, type ToolRecords } from "./registry-file.js";
export {
  type ToolModuleObject,
  ToolRegistry,
  type ToolRegistryOptions,
  type ToolSource,
} from "./tool-registry.js";

export {
  type AppProcessResult,
  type SpawnAppOnTerminalOptions,
  type SpawnAppOptions,
  spawnApp,
  spawnAppOnTerminal,
  type TerminalAnswer,
} from "./spawn-app.js";

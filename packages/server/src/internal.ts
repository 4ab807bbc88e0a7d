// Plumbing for the framework's own packages (`@framework/server-queue`): not a public API.
export {
  createRunExecutor,
  type RunExecutor,
  type RunExecutorOptions,
} from "./run/run-executor.js";

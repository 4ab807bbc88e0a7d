/** Moved to `@framework/core`, where agent streams use it too; re-exported for existing imports. */
export { EventChannel } from "@framework/core";
export type {
  GraphEvent,
  InterruptEvent,
  NodeAgentEvent,
  NodeEndEvent,
  NodeStartEvent,
  RunDoneEvent,
} from "./graph-event.js";
export { isResume, type Resume, resume } from "./interrupt.js";

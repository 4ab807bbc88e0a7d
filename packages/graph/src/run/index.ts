/** Moved to `@framework/core`, where agent streams use it too; re-exported for existing imports. */
export { EventChannel } from "@framework/core";
export type {
  GraphEvent,
  NodeAgentEvent,
  NodeEndEvent,
  NodeStartEvent,
  RunDoneEvent,
} from "./graph-event.js";

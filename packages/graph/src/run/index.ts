export type {
  GraphEvent,
  InterruptEvent,
  NodeAgentEvent,
  NodeEndEvent,
  NodeStartEvent,
  RunDoneEvent,
} from "./graph-event.js";
export { isResume, type Resume, resume } from "./interrupt.js";

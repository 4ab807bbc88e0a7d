export { EventChannel } from "./event-channel.js";
export type {
  GraphEvent,
  InterruptEvent,
  NodeEndEvent,
  NodeStartEvent,
  RunDoneEvent,
} from "./graph-event.js";
export { isResume, type Resume, resume } from "./interrupt.js";

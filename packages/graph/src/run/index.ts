export { EventChannel } from "./event-channel.js";
export type {
  GraphEvent,
  NodeAgentEvent,
  NodeEndEvent,
  NodeStartEvent,
  RunDoneEvent,
} from "./graph-event.js";

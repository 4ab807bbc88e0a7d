export { EventChannel } from "./event-channel.js";
export type { GraphEvent, NodeEndEvent, NodeStartEvent, RunDoneEvent } from "./graph-event.js";

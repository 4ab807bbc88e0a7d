export type {
  GraphEvent,
  InterruptEvent,
  NodeAgentEvent,
  NodeCustomEvent,
  NodeEndEvent,
  NodeStartEvent,
  RunDoneEvent,
} from "./graph-event.js";
export {
  isResume,
  isResumeByIds,
  type Resume,
  type ResumeByIds,
  resume,
  resumeByIds,
} from "./interrupt.js";

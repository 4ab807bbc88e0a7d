export {
  type ReferenceAssistants,
  type ReferenceAssistantsOptions,
  referenceAssistantNames,
  referenceAssistants,
} from "./reference-assistants.js";
export {
  offlineApprovalNote,
  type ServeRequest,
  serveReferenceAgents,
  servingLine,
} from "./serve-reference-agents.js";
export { type WorkRequest, workingLine, workReferenceAgents } from "./work-reference-agents.js";

export { Condition } from "./condition.js";
export { Gate } from "./gate.js";

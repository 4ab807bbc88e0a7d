export { loggingMessage } from "./logging-message.js";

export {
  type CapturedLine,
  type CapturingLogger,
  createCapturingLogger,
  observeCapturedLines,
} from "./capturing-logger.js";

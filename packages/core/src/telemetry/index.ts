export { CORE_TRACER_NAME } from "./agent-tracing.js";
export { GenAiAttribute } from "./gen-ai-attributes.js";
export { recordSpanError } from "./span-error.js";
export { MAX_TRACED_CONTENT_LENGTH, type TracingOptions } from "./tracing-options.js";

import { ConfigurationError } from "../error/configuration-error.js";
import { warnDeprecated } from "../log/deprecation-warning.js";

/** Every value of {@link StructuredOutputsMode}, as `LLM_STRUCTURED_OUTPUTS` accepts them. */
export const structuredOutputsModes = ["auto", "on", "off"] as const;

/**
 * How a chat model asks the provider for an answer in a JSON format (a request's
 * `responseFormat`):
 * - `on`: as the provider's structured outputs, `response_format: { type: "json_schema" }`;
 * - `off`: never through `response_format`; the schema is described in the prompt;
 * - `auto`: as `on`, falling back to the prompt for a provider that refuses `response_format`.
 */
export type StructuredOutputsMode = (typeof structuredOutputsModes)[number];

function isMode(value: string): value is StructuredOutputsMode {
  return (structuredOutputsModes as readonly string[]).includes(value);
}

/**
 * The mode a model uses: the option when given, else `LLM_STRUCTURED_OUTPUTS` (read now, any
 * case), else `auto`. `true` and `false`, the option's values before it had modes, still
 * mean `on` and `off` and warn once per process.
 *
 * @throws ConfigurationError when the variable or the option holds another value.
 */
export function resolveStructuredOutputsMode(
  option: StructuredOutputsMode | boolean | undefined,
  env: NodeJS.ProcessEnv = process.env,
): StructuredOutputsMode {
  if (typeof option === "boolean") {
    warnDeprecated(
      "FRAMEWORK_STRUCTURED_OUTPUTS_BOOLEAN",
      `@framework/core: OpenAIChatModel's structuredOutputs takes "auto", "on" or "off"; ${option} means "${option ? "on" : "off"}" and goes away in the next minor version`,
    );
    return option ? "on" : "off";
  }
  if (option !== undefined) {
    if (isMode(option)) return option;
    throw new ConfigurationError({
      setting: "structuredOutputs",
      message: `structuredOutputs must be one of ${structuredOutputsModes.join(", ")}; got ${JSON.stringify(option)}`,
    });
  }
  const value = env.LLM_STRUCTURED_OUTPUTS?.trim().toLowerCase();
  if (value === undefined || value === "") return "auto";
  if (isMode(value)) return value;
  throw new ConfigurationError({
    setting: "LLM_STRUCTURED_OUTPUTS",
    message: `LLM_STRUCTURED_OUTPUTS must be one of ${structuredOutputsModes.join(", ")}; got ${JSON.stringify(env.LLM_STRUCTURED_OUTPUTS)}`,
  });
}

import { FrameworkError } from "./framework-error.js";

const name = "ConfigurationError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** A required setting (usually an environment variable) is missing or invalid. */
export class ConfigurationError extends FrameworkError {
  private readonly [symbol] = true;

  /** The setting's name, e.g. `"LLM_API_KEY"`. */
  declare readonly setting: string;

  constructor({ setting, message }: { setting: string; message: string }) {
    super({ name, message, fields: { setting } });
  }

  static override isInstance(error: unknown): error is ConfigurationError {
    return FrameworkError.hasMarker(error, marker);
  }
}

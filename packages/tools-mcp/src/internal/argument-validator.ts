import type { JsonSchema } from "@framework/core";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import { Ajv2019 } from "ajv/dist/2019.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import formats from "ajv-formats";

/** One reason arguments fail a tool's input schema, by argument path. */
export interface ArgumentIssue {
  path: string[];
  message: string;
}

/** Checks arguments against a schema; returns the problems, none when they are valid. */
export type ArgumentCheck = (args: unknown) => ArgumentIssue[];

type AnyAjv = Ajv | Ajv2019 | Ajv2020;

/**
 * Compiles MCP servers' input schemas with Ajv, one instance per JSON Schema draft. MCP says a
 * schema without `$schema` is draft 2020-12; servers built on older zod-to-json-schema
 * declare draft-07.
 */
export class ArgumentValidator {
  readonly #instances = new Map<string, AnyAjv>();

  /**
   * A check for `schema`, or `undefined` when Ajv cannot compile it (an unresolvable `$ref`,
   * an unknown draft's syntax): the server still validates what it receives.
   */
  compile(schema: JsonSchema): { check: ArgumentCheck } | { error: Error } {
    const { $schema, ...rest } = schema;
    let validate: ValidateFunction;
    try {
      validate = this.#instance(typeof $schema === "string" ? $schema : "").compile(rest);
    } catch (error) {
      return { error: error instanceof Error ? error : new Error(String(error)) };
    }
    return {
      check: (args) => (validate(args) ? [] : (validate.errors ?? []).map(argumentIssue)),
    };
  }

  #instance(draft: string): AnyAjv {
    const kind = /draft-0[467]/.test(draft)
      ? "draft-07"
      : draft.includes("2019-09")
        ? "2019-09"
        : "2020-12";
    let ajv = this.#instances.get(kind);
    if (!ajv) {
      // Server schemas carry keywords of their own (titles, examples, vendor extensions).
      const options = { allErrors: true, strict: false, logger: false } as const;
      ajv =
        kind === "draft-07"
          ? new Ajv(options)
          : kind === "2019-09"
            ? new Ajv2019(options)
            : new Ajv2020(options);
      formats.default(ajv);
      this.#instances.set(kind, ajv);
    }
    return ajv;
  }
}

function argumentIssue(error: ErrorObject): ArgumentIssue {
  const path = error.instancePath
    .split("/")
    .slice(1)
    .map((part) => part.replaceAll("~1", "/").replaceAll("~0", "~"));
  const params = error.params as { missingProperty?: string; additionalProperty?: string };
  if (error.keyword === "required" && params.missingProperty !== undefined) {
    return { path: [...path, params.missingProperty], message: "is required" };
  }
  if (error.keyword === "additionalProperties" && params.additionalProperty !== undefined) {
    return { path: [...path, params.additionalProperty], message: "is not an accepted argument" };
  }
  return { path, message: error.message ?? `fails "${error.keyword}"` };
}

import { FrameworkError } from "@framework/core";
import { describeIssues, type RequestIssue } from "./request-issue.js";

const name = "RequestValidationError";
const marker = `framework.error.${name}`;
const symbol = Symbol.for(marker);

/** The request is JSON but not what the route accepts; `issues` says where and why. */
export class RequestValidationError extends FrameworkError {
  private readonly [symbol] = true;

  /** The HTTP status this failure is answered with. */
  declare readonly status: 422;
  /** One entry per problem, with the path of the offending value. */
  declare readonly issues: readonly RequestIssue[];

  constructor(options: { issues: readonly RequestIssue[]; message?: string }) {
    super({
      name,
      message: options.message ?? describeIssues(options.issues),
      fields: { status: 422, issues: options.issues },
    });
  }

  static override isInstance(error: unknown): error is RequestValidationError {
    return FrameworkError.hasMarker(error, marker);
  }
}

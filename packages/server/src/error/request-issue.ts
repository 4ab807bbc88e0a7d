/** One problem with a request: where it is (a path into the body, query or URL) and what. */
export interface RequestIssue {
  /** Where the offending value sits, e.g. `["body", "config", "recursion_limit"]`. */
  readonly path: readonly (string | number)[];
  /** What is wrong with it. */
  readonly message: string;
}

/** A one-line summary of `issues`, for the error message. */
export function describeIssues(issues: readonly RequestIssue[]): string {
  const first = issues[0];
  if (!first) return "The request is not valid";
  const where = first.path.length > 0 ? `${first.path.join(".")}: ` : "";
  const more = issues.length > 1 ? ` (and ${issues.length - 1} more)` : "";
  return `The request is not valid: ${where}${first.message}${more}`;
}

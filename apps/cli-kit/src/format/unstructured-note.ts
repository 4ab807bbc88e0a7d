import type { OutputIssue } from "@framework/core";

/**
 * What a report says above a model's answer that did not match the structure it was asked
 * for, before showing that answer as the model wrote it; `subject` names what was asked for,
 * e.g. "recommendation".
 */
export function unstructuredNote(subject: string, issues: readonly OutputIssue[]): string {
  // `(output)` is the answer as a whole, which needs no name.
  const why = issues.map((issue) => {
    const message = issue.message.replace(/\.$/, "");
    return issue.path === "(output)" ? message : `${issue.path}: ${message}`;
  });
  return `Unstructured ${subject}: the model's answer did not match the structure asked for (${why.join("; ")}), so it is shown as the model wrote it.`;
}

/** A validation problem as zod reports it: where, and what. */
interface SchemaIssueSource {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}

/**
 * Validation issues with dotted paths, for errors and for the model to read; a problem with
 * the value as a whole gets `root` as its path.
 */
export function schemaIssues(
  issues: readonly SchemaIssueSource[],
  root: string,
): { path: string; message: string }[] {
  return issues.map((issue) => ({
    path: issue.path.map(String).join(".") || root,
    message: issue.message,
  }));
}

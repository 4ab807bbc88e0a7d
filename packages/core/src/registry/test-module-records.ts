import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";

/**
 * Writes `<dir>/templates/tools.json` holding one module tool record per entry, as another
 * agent would have recorded it: tool name to its `module_path`.
 */
export async function writeModuleRecords(
  dir: string,
  modulePaths: Record<string, string>,
): Promise<void> {
  await mkdir(join(dir, "templates"), { recursive: true });
  const records = Object.fromEntries(
    Object.entries(modulePaths).map(([toolName, modulePath]) => [
      toolName,
      {
        tool_name: toolName,
        arguments: {},
        return: "str",
        docstring: "d",
        dependencies: [],
        module_path: modulePath,
        tool_type: "module",
        tool_call_id: `tool_${toolName}`,
      },
    ]),
  );
  await writeFile(join(dir, "templates", "tools.json"), JSON.stringify(records));
}

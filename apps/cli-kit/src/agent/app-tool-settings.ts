import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** Where an app's agents find their tool modules and keep their tool records. */
export interface AppToolSettings {
  /**
   * The app's package directory: tool packages resolve from here, where the app depends on
   * them, whatever directory the app is run from.
   */
  cwd: string;
  /** `templates/tools.json` under the working directory, the specification's registry file. */
  toolsPath: string;
}

/** The directory of the nearest `package.json` above a module. */
function packageDirectoryOf(moduleUrl: string): string {
  let directory = dirname(fileURLToPath(moduleUrl));
  while (!existsSync(join(directory, "package.json"))) {
    const parent = dirname(directory);
    if (parent === directory) throw new Error(`No package.json above ${fileURLToPath(moduleUrl)}`);
    directory = parent;
  }
  return directory;
}

/** The `cwd` and `toolsPath` options for the agents of the app that `moduleUrl` belongs to. */
export function appToolSettings(moduleUrl: string): AppToolSettings {
  return { cwd: packageDirectoryOf(moduleUrl), toolsPath: resolve("templates/tools.json") };
}

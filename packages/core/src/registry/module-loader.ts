import { readFile, realpath } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, resolve as resolvePath, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { resolve as resolveSpecifier } from "import-meta-resolve";
import { errorMessage } from "../error/error-message.js";
import { ToolModuleError } from "../error/tool-module-error.js";

/** A tool module once imported. */
export interface LoadedToolModule {
  /** The specifier as given; stored as the records' `module_path`. */
  modulePath: string;
  /** The module's exports. */
  exports: Record<string, unknown>;
  /** npm packages the module's package depends on. */
  dependencies: string[];
}

const isFilePath = (specifier: string) =>
  specifier.startsWith("./") ||
  specifier.startsWith("../") ||
  specifier.startsWith("file:") ||
  isAbsolute(specifier);

/**
 * Resolves a specifier the way the application would: a package name from the working
 * directory's dependencies (so it works in pnpm's isolated layout, where the framework itself
 * cannot see the app's packages), or a file path relative to the working directory.
 */
export function resolveToolModule(specifier: string, cwd: string): URL {
  try {
    if (specifier.startsWith("file:")) return new URL(specifier);
    if (isFilePath(specifier)) return pathToFileURL(resolvePath(cwd, specifier));
    return new URL(resolveSpecifier(specifier, pathToFileURL(join(cwd, "/")).href));
  } catch (error) {
    throw new ToolModuleError({
      modulePath: specifier,
      cwd,
      message: `Cannot resolve tool module "${specifier}" from ${cwd}: ${errorMessage(error)}. Install the package in your app, or give a path relative to the working directory.`,
      cause: error,
    });
  }
}

// `data:`, `http:`, `node:`… A drive letter is not one: `isAbsolute` catches it first.
const urlSchemePattern = /^[a-z][a-z\d+.-]*:/i;

/**
 * Resolves a specifier read from the registry file, which anyone able to write that file
 * controls: only an installed package, or a file inside `cwd`, is accepted. URLs (`data:`,
 * `http:`, `node:`…), built-in modules and files outside `cwd` (symbolic links followed) are
 * refused, so a planted record cannot run code that the application did not ship.
 *
 * @throws {ToolModuleError} saying why the specifier is not adopted.
 */
export async function resolveRecordedToolModule(specifier: string, cwd: string): Promise<URL> {
  const refuse = (why: string) =>
    new ToolModuleError({
      modulePath: specifier,
      cwd,
      message: `Refused to import "${specifier}" from the registry file: ${why}.`,
    });
  const isPath = isFilePath(specifier);
  if (!isPath && urlSchemePattern.test(specifier)) {
    throw refuse("a URL is never imported from the registry file");
  }
  const url = resolveToolModule(specifier, cwd);
  if (url.protocol !== "file:") throw refuse(`it resolves to ${url.protocol} (not a file)`);
  if (!isPath) return url;
  let file: string;
  let root: string;
  try {
    [file, root] = await Promise.all([realpath(fileURLToPath(url)), realpath(cwd)]);
  } catch (error) {
    throw refuse(`it cannot be found (${errorMessage(error)})`);
  }
  const path = relative(root, file);
  if (path === "" || path === ".." || path.startsWith(`..${sep}`) || isAbsolute(path)) {
    throw refuse(`the file is outside the working directory ${root}`);
  }
  return url;
}

/** Imports a tool module by specifier and reads its package's dependencies. */
export async function loadToolModule(specifier: string, cwd: string): Promise<LoadedToolModule> {
  return importToolModule(specifier, resolveToolModule(specifier, cwd), cwd);
}

/**
 * Imports a tool module named by a registry file record, once
 * {@link resolveRecordedToolModule} accepted it.
 */
export async function loadRecordedToolModule(
  specifier: string,
  cwd: string,
): Promise<LoadedToolModule> {
  return importToolModule(specifier, await resolveRecordedToolModule(specifier, cwd), cwd);
}

async function importToolModule(
  specifier: string,
  url: URL,
  cwd: string,
): Promise<LoadedToolModule> {
  let exports: Record<string, unknown>;
  try {
    exports = (await import(url.href)) as Record<string, unknown>;
  } catch (error) {
    throw new ToolModuleError({
      modulePath: specifier,
      cwd,
      message: `Cannot import tool module "${specifier}" (${url.href}): ${errorMessage(error)}`,
      cause: error,
    });
  }
  return { modulePath: specifier, exports, dependencies: await packageDependencies(url) };
}

/** The `dependencies` of the nearest package.json above a module file. */
async function packageDependencies(moduleUrl: URL): Promise<string[]> {
  if (moduleUrl.protocol !== "file:") return [];
  let dir = dirname(fileURLToPath(moduleUrl));
  for (;;) {
    try {
      const manifest = JSON.parse(await readFile(join(dir, "package.json"), "utf8")) as {
        dependencies?: Record<string, string>;
      };
      return Object.keys(manifest.dependencies ?? {});
    } catch {
      const parent = dirname(dir);
      if (parent === dir) return [];
      dir = parent;
    }
  }
}

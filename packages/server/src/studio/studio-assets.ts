import { existsSync, readdirSync, readFileSync } from "node:fs";
import { extname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import { StudioNotBuiltError } from "../error/studio-not-built-error.js";

/**
 * The policy of every studio response: the page runs only the scripts and styles it was built
 * with, from its own origin, and talks only to the server that served it. Nothing (font,
 * script, image, stylesheet) can come from anywhere else, so it works offline and behind a
 * firewall, and injected markup cannot run or phone home.
 */
export const STUDIO_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "worker-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

const contentTypes: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".json": "application/json",
  ".map": "application/json",
  ".txt": "text/plain; charset=utf-8",
};

/** Compressing these is worth it; images are compressed already. */
const compressible = new Set([".html", ".js", ".css", ".svg", ".json", ".map", ".txt"]);

/** One file of the built page, held in memory (the whole page is a few megabytes). */
export interface StudioAsset {
  readonly body: Uint8Array;
  /** The gzip of `body`, when that is smaller; made on first request. */
  gzipped(): Uint8Array | undefined;
  readonly contentType: string;
  /** Content-hashed files never change under their name; the page itself may. */
  readonly immutable: boolean;
}

/**
 * Where the built page is: `dist/studio-page` beside the bundled server (`dist/index.js`), or,
 * running from source (tests), the package's `dist/studio-page`.
 */
function studioDirectories(): string[] {
  return [
    new URL("./studio-page/", import.meta.url),
    new URL("../../dist/studio-page/", import.meta.url),
  ].map((url) => fileURLToPath(url));
}

function walk(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? walk(join(directory, entry.name))
      : entry.isFile()
        ? [join(directory, entry.name)]
        : [],
  );
}

function asset(path: string, relativePath: string): StudioAsset {
  const body = new Uint8Array(readFileSync(path));
  const extension = extname(path);
  let gzipped: Uint8Array | null | undefined;
  return {
    body,
    contentType: contentTypes[extension] ?? "application/octet-stream",
    immutable: relativePath.startsWith("assets/"),
    gzipped() {
      if (gzipped === undefined) {
        const packed = compressible.has(extension) ? new Uint8Array(gzipSync(body)) : body;
        gzipped = packed.byteLength < body.byteLength ? packed : null;
      }
      return gzipped ?? undefined;
    },
  };
}

/**
 * The built studio page, read once from the package: `index.html` and its content-hashed
 * `assets/`. Only files that are there are served, by their path relative to it; a request
 * path never reaches the file system.
 */
export class StudioAssets {
  readonly #directories: readonly string[];
  #files: ReadonlyMap<string, StudioAsset> | undefined;

  /** @param directories Where to look for the built page, first found wins (tests point elsewhere). */
  constructor(directories: readonly string[] = studioDirectories()) {
    this.#directories = directories;
  }

  /**
   * The file at `path` (relative to `/studio/`), else the page itself for the page's own
   * routes (`threads/…`), else `undefined` for a missing asset.
   *
   * @throws StudioNotBuiltError when the package holds no built page.
   */
  find(path: string): StudioAsset | undefined {
    const files = this.#load();
    const file = files.get(path);
    if (file) return file;
    if (path.startsWith("assets/") || extname(path) !== "") return undefined;
    return files.get("index.html");
  }

  #load(): ReadonlyMap<string, StudioAsset> {
    if (this.#files) return this.#files;
    const directories = this.#directories;
    const directory = directories.find((candidate) => existsSync(join(candidate, "index.html")));
    if (!directory) throw new StudioNotBuiltError({ searched: directories });
    const files = new Map<string, StudioAsset>();
    for (const path of walk(directory)) {
      const relativePath = relative(directory, path).split(sep).join("/");
      files.set(relativePath, asset(path, relativePath));
    }
    this.#files = files;
    return files;
  }
}

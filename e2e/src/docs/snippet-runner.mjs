// Runs README snippets one after another in this process (started with `--import tsx`) and
// reports each outcome to the parent over IPC. A snippet that does not settle within
// SNIPPET_TIMEOUT_MS is reported as hung and the next one starts; the process exits at the
// end whatever the snippets left open.
import { pathToFileURL } from "node:url";
import { inspect } from "node:util";

const timeoutMs = Number(process.env.SNIPPET_TIMEOUT_MS);

for (const file of process.argv.slice(2)) {
  let timer;
  const hung = new Promise((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`did not finish within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
  });
  try {
    await Promise.race([import(pathToFileURL(file).href), hung]);
    process.send({ file, ok: true });
  } catch (error) {
    process.send({ file, ok: false, error: inspect(error, { depth: 4 }) });
  } finally {
    clearTimeout(timer);
  }
}
process.disconnect();
process.exit(0);

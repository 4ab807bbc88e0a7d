#!/usr/bin/env node
// Fails when any workspace package's source imports itself in a circle (madge, per package):
// a circle means two modules that cannot be understood, tested or loaded one without the
// other. Other packages are left out (imports reaching `../` are another package's files);
// each package is checked on its own.
import { existsSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import madge from "madge";

const root = new URL("..", import.meta.url).pathname;
const sources = ["packages", "apps"]
  .flatMap((group) => readdirSync(join(root, group)).map((name) => join(root, group, name, "src")))
  .concat(["bench", "e2e"].map((name) => join(root, name, "src")))
  .filter((dir) => existsSync(dir));

let circles = 0;
for (const dir of sources) {
  const result = await madge(dir, {
    fileExtensions: ["ts"],
    excludeRegExp: [/^\.\.\//],
  });
  for (const circle of result.circular()) {
    circles += 1;
    console.error(`${relative(root, dir)}: ${circle.join(" > ")}`);
  }
}
console.log(
  circles === 0
    ? `No import circle in ${sources.length} packages.`
    : `${circles} import circle(s) found.`,
);
process.exit(circles === 0 ? 0 : 1);

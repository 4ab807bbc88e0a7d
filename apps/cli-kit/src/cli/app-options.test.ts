import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { appOptions, appOptionsHelp } from "./app-options.js";

function parse(args: string[]) {
  const program = new Command("app").exitOverride().argument("[words...]");
  const resolve = appOptions(program);
  program.parse(args, { from: "user" });
  return { program, options: resolve() };
}

describe("appOptions", () => {
  it("resolves the shared options, the thread as threadId", () => {
    const { options } = parse(["--thread", "7", "--db", "x.sqlite", "--forget", "--verbose"]);
    expect(options).toEqual({
      threadId: "7",
      db: "x.sqlite",
      forget: true,
      offline: false,
      verbose: true,
    });
  });

  it("leaves out what the command line does not give", () => {
    expect(parse(["a question", "--offline"]).options).toEqual({
      forget: false,
      offline: true,
      verbose: false,
    });
  });

  it("declares each option with its help text", () => {
    const help = parse([]).program.helpInformation().replace(/\s+/g, " ");
    for (const [flags, text] of [
      ["--thread <id>", appOptionsHelp.thread],
      ["--db <file>", appOptionsHelp.db],
      ["--forget", appOptionsHelp.forget],
      ["--offline", appOptionsHelp.offline],
      ["--verbose", appOptionsHelp.verbose],
    ]) {
      expect(help).toContain(`${flags} ${text}`);
    }
  });
});

import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ToolArgumentsError } from "../error/tool-arguments-error.js";
import { getToolSpec, isPrimaryFunction, primaryFunction } from "./primary-function.js";

const search = primaryFunction(
  {
    description: "Search papers.\nLonger explanation.",
    parameters: z.object({ topic: z.string(), max_results: z.number().int().min(1).default(5) }),
    returns: "Dict[str, Any] with paper information",
  },
  async function paper_search({ topic, max_results }) {
    return { topic, max_results };
  },
);

describe("primaryFunction", () => {
  it("keeps the function callable with named arguments and applies defaults", async () => {
    await expect(search({ topic: "agents" })).resolves.toEqual({ topic: "agents", max_results: 5 });
    await expect(search({ topic: "agents", max_results: 2 })).resolves.toEqual({
      topic: "agents",
      max_results: 2,
    });
  });

  it("validates a direct call exactly as a tool call", async () => {
    const error = await search({ topic: "agents", max_results: 0 }).catch((e: unknown) => e);
    expect(ToolArgumentsError.isInstance(error)).toBe(true);
    expect((error as ToolArgumentsError).issues.map((issue) => issue.path)).toEqual([
      "max_results",
    ]);
    expect((error as ToolArgumentsError).message).toContain("paper_search");
  });

  it("is marked registrable and carries its name and metadata", () => {
    expect(isPrimaryFunction(search)).toBe(true);
    expect(isPrimaryFunction(async () => 1)).toBe(false);
    expect(search.name).toBe("paper_search");
    expect(getToolSpec(search).returns).toBe("Dict[str, Any] with paper information");
  });

  it("takes its name from meta.name when given", () => {
    const tool = primaryFunction(
      { name: "renamed", description: "d", parameters: z.object({}), returns: "str" },
      () => "x",
    );
    expect(getToolSpec(tool).name).toBe("renamed");
  });

  it("refuses an anonymous function without meta.name", () => {
    expect(() =>
      primaryFunction(
        { description: "d", parameters: z.object({}), returns: "str" },
        (
          () => () =>
            1
        )(),
      ),
    ).toThrow(/named function/);
  });

  it("passes the caller's signal and logger to the tool", async () => {
    const seen: string[] = [];
    const tool = primaryFunction(
      { description: "d", parameters: z.object({}), returns: "str" },
      async function probe(_args, context) {
        context.logger.info("inside");
        return context.signal.aborted;
      },
    );
    const controller = new AbortController();
    controller.abort();
    const logger = { debug() {}, info: (m: string) => seen.push(m), warn() {}, error() {} };
    await expect(tool({}, { signal: controller.signal, logger })).resolves.toBe(true);
    expect(seen).toEqual(["inside"]);
  });
});

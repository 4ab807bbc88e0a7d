import { describe, expect, it } from "vitest";
import { ArxivRequestError } from "./error/arxiv-request-error.js";
import { childElement, childElements, parseXml, textContent } from "./xml-tree.js";

describe("parseXml", () => {
  it("resolves names by the declarations in scope, whatever the prefix", () => {
    const root = parseXml(
      `<a:root xmlns:a="urn:a" xmlns="urn:default">
         <child/>
         <b:child xmlns:b="urn:a"/>
         <inner xmlns="urn:other"><leaf/></inner>
         <reset xmlns=""/>
       </a:root>`,
    );
    expect(root).toMatchObject({ namespace: "urn:a", localName: "root" });
    expect(childElements(root, "urn:default", "child")).toHaveLength(1);
    expect(childElements(root, "urn:a", "child")).toHaveLength(1);
    const inner = childElement(root, "urn:other", "inner");
    expect(inner && childElement(inner, "urn:other", "leaf")).toBeDefined();
    const reset = root.content.find(
      (node) => typeof node !== "string" && node.localName === "reset",
    );
    expect(reset).toMatchObject({ namespace: undefined });
  });

  it("decodes entities once, numeric references included, and keeps CDATA as written", () => {
    const root = parseXml(
      `<t a="x &amp; &#233;">A &amp; B &#8217;&#x2014; &amp;#38; <![CDATA[<b>&amp;</b>]]></t>`,
    );
    expect(root.attributes).toEqual({ a: "x & é" });
    expect(textContent(root)).toBe("A & B ’— &#38; <b>&amp;</b>");
  });

  it("keeps whitespace and gathers descendant text", () => {
    const root = parseXml("<t>\n  one <i>two</i>\n  three </t>");
    expect(textContent(root)).toBe("\n  one two\n  three ");
    expect(textContent(undefined)).toBe("");
  });

  it.each([
    ["not xml at all", /not well-formed XML: /],
    ["", /not well-formed XML: /],
    ["<feed><entry></feed>", /not well-formed XML: /],
    ["<a/><b/>", /more than one root element/],
  ])("rejects %j as a malformed response", (text, message) => {
    let caught: unknown;
    try {
      parseXml(text);
    } catch (error) {
      caught = error;
    }
    expect(ArxivRequestError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({ reason: "malformed-response", message });
  });
});

import { XMLParser } from "fast-xml-parser";
import { ArxivRequestError } from "./error/arxiv-request-error.js";

/**
 * An XML element whose name is resolved against the namespace declarations in scope, so a
 * reader matches `{namespace, localName}` and never depends on which prefix a document chose
 * or on which element declared it.
 */
export interface XmlElement {
  /** The namespace URI, or `undefined` for an element in no namespace. */
  namespace: string | undefined;
  localName: string;
  /** Attributes other than namespace declarations, by qualified name, entities decoded. */
  attributes: Record<string, string>;
  /** Child elements and text, in document order. */
  content: Array<XmlElement | string>;
}

// Entities are decoded here rather than by the parser: fast-xml-parser's own decoding skips
// numeric character references, and decoding after it would decode `&amp;#38;` twice.
const parser = new XMLParser({
  preserveOrder: true,
  ignoreAttributes: false,
  attributeNamePrefix: "",
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  processEntities: false,
  cdataPropName: "#cdata",
  ignoreDeclaration: true,
  ignorePiTags: true,
});

const attributesKey = ":@";
const xmlNamespace = "http://www.w3.org/XML/1998/namespace";
const entityPattern = /&(?:#x([0-9a-fA-F]+)|#([0-9]+)|(amp|lt|gt|quot|apos));/g;
const namedEntities: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
};

function decodeEntities(text: string): string {
  return text.replace(entityPattern, (match, hex?: string, decimal?: string, name?: string) => {
    if (name) return namedEntities[name] ?? match;
    const codePoint = hex ? Number.parseInt(hex, 16) : Number(decimal);
    return codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : match;
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function textOf(nodes: unknown): string {
  if (!Array.isArray(nodes)) return "";
  return nodes.map((node) => (isRecord(node) ? String(node["#text"] ?? "") : "")).join("");
}

function convertNodes(nodes: unknown, scope: ReadonlyMap<string, string>): XmlElement["content"] {
  if (!Array.isArray(nodes)) return [];
  const content: XmlElement["content"] = [];
  for (const node of nodes) {
    if (!isRecord(node)) continue;
    if ("#text" in node) {
      content.push(decodeEntities(String(node["#text"])));
    } else if ("#cdata" in node) {
      content.push(textOf(node["#cdata"]));
    } else {
      const element = convertElement(node, scope);
      if (element) content.push(element);
    }
  }
  return content;
}

function convertElement(
  node: Record<string, unknown>,
  parentScope: ReadonlyMap<string, string>,
): XmlElement | undefined {
  const qualifiedName = Object.keys(node).find((key) => key !== attributesKey);
  if (qualifiedName === undefined) return undefined;
  const rawAttributes = isRecord(node[attributesKey]) ? node[attributesKey] : {};
  const scope = new Map(parentScope);
  const attributes: Record<string, string> = {};
  for (const [name, raw] of Object.entries(rawAttributes)) {
    const value = decodeEntities(String(raw));
    if (name === "xmlns") scope.set("", value);
    else if (name.startsWith("xmlns:")) scope.set(name.slice("xmlns:".length), value);
    else attributes[name] = value;
  }
  const colon = qualifiedName.indexOf(":");
  const prefix = colon === -1 ? "" : qualifiedName.slice(0, colon);
  // An empty default declaration (`xmlns=""`) puts unprefixed elements back in no namespace.
  const namespace = scope.get(prefix) || undefined;
  return {
    namespace,
    localName: qualifiedName.slice(colon + 1),
    attributes,
    content: convertNodes(node[qualifiedName], scope),
  };
}

function notXml(detail: string, cause?: unknown): ArxivRequestError {
  return new ArxivRequestError({
    reason: "malformed-response",
    message: `arXiv sent a response that is not well-formed XML: ${detail}`,
    cause,
  });
}

/**
 * Parses an XML document into a namespace-resolved element tree and returns its root.
 * Throws {@link ArxivRequestError} (`malformed-response`) when the text is not well-formed
 * or has no single root element.
 */
export function parseXml(text: string): XmlElement {
  let nodes: unknown;
  try {
    nodes = parser.parse(text, true);
  } catch (error) {
    throw notXml(error instanceof Error ? error.message : String(error), error);
  }
  const elements = convertNodes(nodes, new Map([["xml", xmlNamespace]])).filter(
    (node): node is XmlElement => typeof node !== "string",
  );
  const [root, ...others] = elements;
  if (!root) throw notXml("it has no root element");
  if (others.length > 0) throw notXml("it has more than one root element");
  return root;
}

/** The child elements of `element` with this namespace and local name, in order. */
export function childElements(
  element: XmlElement,
  namespace: string,
  localName: string,
): XmlElement[] {
  return element.content.filter(
    (node): node is XmlElement =>
      typeof node !== "string" && node.namespace === namespace && node.localName === localName,
  );
}

/** The first child element with this namespace and local name, if any. */
export function childElement(
  element: XmlElement,
  namespace: string,
  localName: string,
): XmlElement | undefined {
  return childElements(element, namespace, localName)[0];
}

/** All text inside `element`, descendants included, as written (whitespace kept). */
export function textContent(element: XmlElement | undefined): string {
  if (!element) return "";
  return element.content
    .map((node) => (typeof node === "string" ? node : textContent(node)))
    .join("");
}

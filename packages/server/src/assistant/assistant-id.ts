import { createHash } from "node:crypto";

/** The UUID namespace LangGraph's server derives assistant ids from graph ids with. */
const graphNamespace = "6ba7b821-9dad-11d1-80b4-00c04fd430c8";

/** RFC 9562's name-based UUID (version 5, SHA-1) of `name` in `namespace`. */
export function uuidV5(name: string, namespace: string): string {
  const hash = createHash("sha1")
    .update(Buffer.from(namespace.replaceAll("-", ""), "hex"))
    .update(name, "utf8")
    .digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * The assistant id of a served graph: the UUID v5 of its name in LangGraph's graph namespace,
 * so an assistant has the same id here as on a LangGraph server serving a graph of that name.
 */
export function assistantIdOf(graphId: string): string {
  return uuidV5(graphId, graphNamespace);
}

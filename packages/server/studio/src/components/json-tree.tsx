import type { Json } from "../api/wire.js";

interface JsonTreeProps {
  readonly value: Json | undefined;
  /** Paths (`a.b.0`) to mark as changed. */
  readonly changed?: ReadonlySet<string>;
  /** Objects deeper than this start folded. */
  readonly openDepth?: number;
}

const isBranch = (value: Json | undefined): value is Json[] | { [key: string]: Json } =>
  typeof value === "object" && value !== null;

function Leaf({ value }: { value: Json | undefined }) {
  if (value === undefined) return <span className="json-null">undefined</span>;
  if (value === null) return <span className="json-null">null</span>;
  if (typeof value === "string") return <span className="json-string">"{value}"</span>;
  return <span className="json-literal">{String(value)}</span>;
}

function Node({
  name,
  value,
  path,
  depth,
  changed,
  openDepth,
}: {
  name: string | undefined;
  value: Json | undefined;
  path: string;
  depth: number;
  changed: ReadonlySet<string>;
  openDepth: number;
}) {
  const isChanged = changed.has(path);
  const label = name === undefined ? null : <span className="json-key">{name}: </span>;
  if (!isBranch(value)) {
    return (
      <li className={isChanged ? "json-changed" : undefined}>
        {label}
        <Leaf value={value} />
        {isChanged ? <span className="sr-only"> (changed)</span> : null}
      </li>
    );
  }
  const entries = Array.isArray(value)
    ? value.map((item, index) => [String(index), item] as const)
    : Object.entries(value);
  const summary = Array.isArray(value) ? `[${entries.length}]` : `{${entries.length}}`;
  return (
    <li className={isChanged ? "json-changed" : undefined}>
      <details open={depth < openDepth}>
        <summary>
          {label}
          <span className="json-summary">{summary}</span>
          {isChanged ? <span className="sr-only"> (changed)</span> : null}
        </summary>
        <ul>
          {entries.map(([key, item]) => (
            <Node
              key={key}
              name={key}
              value={item}
              path={path === "" ? key : `${path}.${key}`}
              depth={depth + 1}
              changed={changed}
              openDepth={openDepth}
            />
          ))}
        </ul>
      </details>
    </li>
  );
}

/** JSON as a foldable tree; changed paths are highlighted (and said so to screen readers). */
export function JsonTree({ value, changed = new Set(), openDepth = 2 }: JsonTreeProps) {
  return (
    <ul className="json-tree">
      <Node
        name={undefined}
        value={value}
        path=""
        depth={0}
        changed={changed}
        openDepth={openDepth}
      />
    </ul>
  );
}

/** The paths at which `after` differs from `before` (and every ancestor of one). */
export function changedPaths(before: Json | undefined, after: Json | undefined): Set<string> {
  const paths = new Set<string>();
  const walk = (a: Json | undefined, b: Json | undefined, path: string): boolean => {
    if (isBranch(a) && isBranch(b) && Array.isArray(a) === Array.isArray(b)) {
      const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
      let any = false;
      for (const key of keys) {
        const child = path === "" ? key : `${path}.${key}`;
        const at = (value: typeof a, name: string) =>
          (value as Record<string, Json | undefined>)[name];
        if (walk(at(a, key), at(b, key), child)) any = true;
      }
      if (any) paths.add(path);
      return any;
    }
    if (JSON.stringify(a) === JSON.stringify(b)) return false;
    paths.add(path);
    return true;
  };
  walk(before, after, "");
  return paths;
}

/**
 * The strongly connected components of a directed graph on vertices `0..n-1`, numbered in
 * topological order of the component graph: an edge between two components always goes from
 * a lower number to a higher one. Nodes on one cycle share a component, so "component `a` is
 * upstream of component `b`" is a partial order with `a < b` as a necessary condition.
 */
export interface Condensation {
  /** Component of each vertex. */
  readonly componentOf: Int32Array;
  /** Number of components. */
  readonly count: number;
  /** Components with an edge into each component, without duplicates or self-edges. */
  readonly predecessors: readonly (readonly number[])[];
}

/**
 * Tarjan's algorithm, iterative so a 10,000-node chain cannot overflow the call stack:
 * O(vertices + edges) time and memory.
 */
export function condense(successors: readonly (readonly number[])[]): Condensation {
  const n = successors.length;
  const index = new Int32Array(n).fill(-1);
  const low = new Int32Array(n);
  const onStack = new Uint8Array(n);
  const tarjanComponent = new Int32Array(n);
  const stack: number[] = [];
  const callVertex: number[] = [];
  const callEdge: number[] = [];
  let nextIndex = 0;
  let found = 0;
  for (let root = 0; root < n; root++) {
    if (index[root] !== -1) continue;
    callVertex.push(root);
    callEdge.push(0);
    index[root] = low[root] = nextIndex++;
    stack.push(root);
    onStack[root] = 1;
    while (callVertex.length > 0) {
      const top = callVertex.length - 1;
      const vertex = callVertex[top]!;
      const edges = successors[vertex]!;
      const edge = callEdge[top]!;
      if (edge < edges.length) {
        callEdge[top] = edge + 1;
        const next = edges[edge]!;
        if (index[next] === -1) {
          index[next] = low[next] = nextIndex++;
          stack.push(next);
          onStack[next] = 1;
          callVertex.push(next);
          callEdge.push(0);
        } else if (onStack[next]) {
          low[vertex] = Math.min(low[vertex]!, index[next]!);
        }
        continue;
      }
      callVertex.pop();
      callEdge.pop();
      if (low[vertex] === index[vertex]) {
        let member: number;
        do {
          member = stack.pop()!;
          onStack[member] = 0;
          tarjanComponent[member] = found;
        } while (member !== vertex);
        found += 1;
      }
      const parent = callVertex[callVertex.length - 1];
      if (parent !== undefined) low[parent] = Math.min(low[parent]!, low[vertex]!);
    }
  }
  // Tarjan completes components in reverse topological order; flip the numbering.
  const componentOf = new Int32Array(n);
  for (let vertex = 0; vertex < n; vertex++) {
    componentOf[vertex] = found - 1 - tarjanComponent[vertex]!;
  }
  const predecessors: number[][] = Array.from({ length: found }, () => []);
  const lastAdded = new Int32Array(found).fill(-1);
  // Grouping edges by target component makes duplicate detection one array lookup.
  const incoming: number[][] = Array.from({ length: found }, () => []);
  for (let vertex = 0; vertex < n; vertex++) {
    for (const next of successors[vertex]!) {
      const from = componentOf[vertex]!;
      const to = componentOf[next]!;
      if (from !== to) incoming[to]!.push(from);
    }
  }
  for (let component = 0; component < found; component++) {
    for (const from of incoming[component]!) {
      if (lastAdded[from] === component) continue;
      lastAdded[from] = component;
      predecessors[component]!.push(from);
    }
  }
  return { componentOf, count: found, predecessors };
}

const [oldG, newG] = await Promise.all([import("/tmp/oldwt/packages/graph/dist/index.js"), import("/work/main/packages/graph/dist/index.js")]);
const { z } = await import("zod");
function fan(G, width) {
  const State = G.defineState({ results: G.reducer(z.array(z.number()), G.appendReducer, () => []), total: z.number().optional() });
  const graph = new G.FlowStateGraph(State);
  graph.addNode("join", (s) => ({ total: s.results.length }));
  for (let i = 0; i < width; i++) { graph.addNode(`f${i}`, () => ({ results: i })); graph.addEdge(G.START, `f${i}`); graph.addEdge(`f${i}`, "join"); }
  graph.addEdge("join", G.END);
  const app = graph.compile({ checkpointer: new G.MemorySaver(), stepLimit: width + 1 });
  let t = 0;
  return () => app.invoke({ results: [] }, { configurable: { thread_id: `t${t++}` } });
}
for (const width of [100, 1000]) {
  const runs = { old: fan(oldG, width), new: fan(newG, width) };
  const res = { old: [], new: [] };
  const n = width === 100 ? 100 : 10;
  for (let round = 0; round < 12; round++) for (const k of Object.keys(runs)) {
    const s = performance.now(); for (let i = 0; i < n; i++) await runs[k](); const ms = performance.now() - s;
    if (round > 1) res[k].push(n / (ms / 1000));
  }
  const med = (a) => a.sort((x, y) => x - y)[a.length >> 1];
  console.log(width, Object.entries(res).map(([k, v]) => `${k} ${med(v).toFixed(0)} runs/s`).join("  "));
}

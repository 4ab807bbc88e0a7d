import { benchCheckpointGrowth } from "/work/wt/graph-scale/bench/src/checkpoint-growth.js";
import { benchGraphScale } from "/work/wt/graph-scale/bench/src/graph-scale.js";
import { renderTable } from "/work/wt/graph-scale/bench/src/report.js";
import { fullSettings } from "/work/wt/graph-scale/bench/src/settings.js";

const t = performance.now();
const rows = [
  await benchCheckpointGrowth(fullSettings.checkpointGrowth),
  ...(await benchGraphScale(fullSettings.graphScale)),
];
console.log(renderTable(rows));
console.log(
  JSON.stringify(
    rows.map((r) => ({ id: r.id, d: r.details })),
    null,
    1,
  ).slice(0, 3000),
);
console.log("total s", (performance.now() - t) / 1000);

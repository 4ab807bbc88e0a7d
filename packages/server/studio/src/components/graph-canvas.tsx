import { Background, type Edge, MarkerType, type Node, ReactFlow } from "@xyflow/react";
import "@xyflow/react/dist/style.css";
import ELK from "elkjs/lib/elk.bundled.js";
import { useEffect, useMemo, useState } from "react";
import type { GraphDrawing } from "../api/wire.js";
import type { NodeStatus } from "../model/run-view.js";

const elk = new ELK();
const NODE_WIDTH = 150;
const NODE_HEIGHT = 44;
const terminal = new Set(["__start__", "__end__"]);

/** Node positions laid out top to bottom by ELK's layered algorithm. */
async function layout(drawing: GraphDrawing): Promise<Map<string, { x: number; y: number }>> {
  const laidOut = await elk.layout({
    id: "root",
    layoutOptions: {
      "elk.algorithm": "layered",
      "elk.direction": "DOWN",
      "elk.layered.spacing.nodeNodeBetweenLayers": "48",
      "elk.spacing.nodeNode": "36",
    },
    children: drawing.nodes.map((node) => ({
      id: node.id,
      width: NODE_WIDTH,
      height: NODE_HEIGHT,
    })),
    edges: drawing.edges.map((edge, index) => ({
      id: `e${index}`,
      sources: [edge.source],
      targets: [edge.target],
    })),
  });
  return new Map(
    (laidOut.children ?? []).map((child) => [child.id, { x: child.x ?? 0, y: child.y ?? 0 }]),
  );
}

const label = (id: string) => (id === "__start__" ? "START" : id === "__end__" ? "END" : id);

/**
 * An assistant's graph (`GET /assistants/{id}/graph`) laid out by ELK and drawn by React
 * Flow: START and END as pills, conditional edges dashed, and each node lit by its status in
 * the run being watched.
 */
export default function GraphCanvas({
  drawing,
  status,
}: {
  drawing: GraphDrawing;
  status: Readonly<Record<string, NodeStatus>>;
}) {
  const [positions, setPositions] = useState<Map<string, { x: number; y: number }>>();
  useEffect(() => {
    let current = true;
    layout(drawing).then((laidOut) => current && setPositions(laidOut));
    return () => {
      current = false;
    };
  }, [drawing]);

  const nodes = useMemo<Node[]>(
    () =>
      drawing.nodes.map((node) => {
        const state = status[node.id];
        return {
          id: node.id,
          position: positions?.get(node.id) ?? { x: 0, y: 0 },
          data: { label: label(node.id) },
          className: `graph-node ${terminal.has(node.id) ? "graph-terminal" : ""} ${state ? `is-${state}` : ""}`,
          draggable: false,
          connectable: false,
          width: NODE_WIDTH,
          height: NODE_HEIGHT,
          ariaLabel: `${label(node.id)}${state ? `: ${state}` : ""}`,
        };
      }),
    [drawing, positions, status],
  );
  const edges = useMemo<Edge[]>(
    () =>
      drawing.edges.map((edge, index) => ({
        id: `e${index}`,
        source: edge.source,
        target: edge.target,
        className: edge.conditional ? "graph-edge is-conditional" : "graph-edge",
        markerEnd: { type: MarkerType.ArrowClosed },
        animated: status[edge.source] === "done" && status[edge.target] === "running",
      })),
    [drawing, status],
  );

  return (
    <div className="graph-canvas" data-laid-out={positions ? "true" : "false"}>
      {positions ? (
        <ReactFlow
          nodes={nodes}
          edges={edges}
          fitView
          fitViewOptions={{ padding: 0.15, maxZoom: 1 }}
          nodesDraggable={false}
          nodesConnectable={false}
          aria-label="The assistant's graph"
        >
          <Background gap={24} />
        </ReactFlow>
      ) : (
        <p className="muted">Laying out the graph…</p>
      )}
    </div>
  );
}

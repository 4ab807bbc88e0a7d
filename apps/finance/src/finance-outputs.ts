import { relative, sep } from "node:path";
import type { AgentToolCall } from "@framework/core";

/** A chart one of the agent's tool calls drew. */
export interface DrawnChart {
  tool: string;
  symbol: string;
  htmlPath: string;
  pngPath: string;
}

function isFigure(
  value: unknown,
): value is { htmlPath: string; pngPath: string; table: { symbol: string } } {
  const figure = value as { htmlPath?: unknown; pngPath?: unknown; table?: { symbol?: unknown } };
  return (
    typeof value === "object" &&
    value !== null &&
    typeof figure.htmlPath === "string" &&
    typeof figure.pngPath === "string" &&
    typeof figure.table?.symbol === "string"
  );
}

/** The charts the run's `visualize_stock_data` and `plot_returns` calls wrote. */
export function chartsDrawn(toolCalls: readonly AgentToolCall[]): DrawnChart[] {
  return toolCalls.flatMap((call) =>
    call.ok && isFigure(call.result)
      ? [
          {
            tool: call.toolName,
            symbol: call.result.table.symbol,
            htmlPath: call.result.htmlPath,
            pngPath: call.result.pngPath,
          },
        ]
      : [],
  );
}

/** The reports the run's `deepsearch_tool` calls wrote (failures excluded). */
export function reportsWritten(toolCalls: readonly AgentToolCall[]): string[] {
  return toolCalls.flatMap((call) =>
    call.toolName === "deepsearch_tool" &&
    call.ok &&
    typeof call.result === "string" &&
    call.result.startsWith("# I. Planning")
      ? [call.result]
      : [],
  );
}

// Paths under the working directory read best relative (`charts/NVDA_...png`).
function shown(path: string): string {
  const near = relative(process.cwd(), path);
  return near.startsWith(`..${sep}`) || near === ".." ? path : near;
}

/** The charts as a list: what each shows, and its image and interactive page. */
export function renderCharts(charts: readonly DrawnChart[]): string {
  if (charts.length === 0) return "No chart was drawn.";
  return charts
    .map((chart) => {
      const kind =
        chart.tool === "plot_returns" ? "cumulative returns" : "candlesticks, MA20, volume";
      return `- ${chart.symbol} (${kind}): ${shown(chart.pngPath)}\n  interactive: ${shown(chart.htmlPath)}`;
    })
    .join("\n");
}

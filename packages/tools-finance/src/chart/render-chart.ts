import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { Resvg } from "@resvg/resvg-js";
import type { EChartsOption } from "echarts";
import { BarChart, CandlestickChart, LineChart } from "echarts/charts";
import {
  DataZoomComponent,
  GridComponent,
  LegendComponent,
  TitleComponent,
  TooltipComponent,
} from "echarts/components";
import { init, use } from "echarts/core";
import { SVGRenderer } from "echarts/renderers";
import type { ChartSize } from "./chart-size.js";

let registered = false;

/** Renders `option` server-side to an SVG document of `size`. */
export function renderChartSvg(option: EChartsOption, size: ChartSize): string {
  if (!registered) {
    use([
      BarChart,
      CandlestickChart,
      LineChart,
      DataZoomComponent,
      GridComponent,
      LegendComponent,
      TitleComponent,
      TooltipComponent,
      SVGRenderer,
    ]);
    registered = true;
  }
  const chart = init(null, null, { renderer: "svg", ssr: true, ...size });
  try {
    chart.setOption(option);
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

/** Renders `option` to a PNG image of exactly `size`, through SVG and resvg. */
export function renderChartPng(option: EChartsOption, size: ChartSize): Buffer {
  const svg = renderChartSvg(option, size);
  const image = new Resvg(svg, {
    background: "#ffffff",
    fitTo: { mode: "width", value: size.width },
    font: {
      loadSystemFonts: true,
      defaultFontFamily: "DejaVu Sans",
      sansSerifFamily: "DejaVu Sans",
    },
  });
  return image.render().asPng();
}

let echartsSource: Promise<string> | undefined;

/** The installed echarts browser bundle, read once, safe to inline in a `<script>` element. */
function inlineEchartsSource(): Promise<string> {
  echartsSource ??= readFile(
    createRequire(import.meta.url).resolve("echarts/dist/echarts.min"),
    "utf8",
  ).then((source) => source.replaceAll("</script", "<\\/script"));
  return echartsSource;
}

/**
 * A self-contained interactive page of `option`: the echarts library is inlined from the
 * installed package, so the page works offline and loads nothing from elsewhere.
 */
export async function renderChartHtml(
  option: EChartsOption,
  size: ChartSize,
  title: string,
): Promise<string> {
  const library = await inlineEchartsSource();
  // "<" escaped keeps a data value such as "</script>" from ending the script element.
  const optionJson = JSON.stringify(option).replace(/</g, "\\u003c");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>html,body{margin:0;background:#fff}#chart{width:100%;max-width:${size.width}px;height:${size.height}px;margin:0 auto}</style>
</head>
<body>
<div id="chart"></div>
<script>${library}</script>
<script>
const chart = echarts.init(document.getElementById("chart"));
chart.setOption(${optionJson});
window.addEventListener("resize", () => chart.resize());
</script>
</body>
</html>
`;
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

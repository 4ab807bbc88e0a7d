import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { EChartsOption } from "echarts";
import type { ChartSize } from "./chart-size.js";

type EchartsCore = typeof import("echarts/core");

let echarts: Promise<EchartsCore> | undefined;

/**
 * echarts, imported on the first chart rather than with the package: it takes about half a
 * second to load, and most agents that register these tools only fetch prices.
 */
function loadEcharts(): Promise<EchartsCore> {
  echarts ??= Promise.all([
    import("echarts/core"),
    import("echarts/charts"),
    import("echarts/components"),
    import("echarts/renderers"),
  ]).then(([core, charts, components, renderers]) => {
    core.use([
      charts.BarChart,
      charts.CandlestickChart,
      charts.LineChart,
      components.DataZoomComponent,
      components.GridComponent,
      components.LegendComponent,
      components.TitleComponent,
      components.TooltipComponent,
      renderers.SVGRenderer,
    ]);
    return core;
  });
  return echarts;
}

/** Renders `option` server-side to an SVG document of `size`. */
export async function renderChartSvg(option: EChartsOption, size: ChartSize): Promise<string> {
  const { init } = await loadEcharts();
  const chart = init(null, null, { renderer: "svg", ssr: true, ...size });
  try {
    chart.setOption(option);
    return chart.renderToSVGString();
  } finally {
    chart.dispose();
  }
}

/** Renders `option` to a PNG image of exactly `size`, through SVG and resvg. */
export async function renderChartPng(option: EChartsOption, size: ChartSize): Promise<Buffer> {
  const [svg, { Resvg }] = await Promise.all([
    renderChartSvg(option, size),
    import("@resvg/resvg-js"),
  ]);
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

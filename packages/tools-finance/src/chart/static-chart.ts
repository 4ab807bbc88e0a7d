import type { EChartsOption } from "echarts";

/**
 * The option as a still image draws it: without the zoom slider, which only works in the
 * interactive page. Zooming by wheel or touch (`inside`) draws nothing, so it may stay.
 */
export function staticChartOption(option: EChartsOption): EChartsOption {
  const zoom = option.dataZoom;
  if (zoom === undefined) return option;
  const kept = (Array.isArray(zoom) ? zoom : [zoom]).filter((entry) => entry.type !== "slider");
  return { ...option, dataZoom: kept };
}

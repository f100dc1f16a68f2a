// Bar charts for the Overview, drawn as PNG pictures: a vega-lite spec is compiled to vega, rendered to SVG
// headlessly, and rasterised by resvg. The figures come in already computed; this file only draws them.
import { Resvg } from '@resvg/resvg-js';
import * as vega from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';

export interface Bar {
  label: string;
  value: number;
}

export interface BarChartSpec {
  title: string;
  /** Shown in the order given, top to bottom. */
  bars: Bar[];
  /** `percent`: values 0.0–1.0 on a fixed 0–100% axis; `count`: whole numbers from 0. */
  format: 'percent' | 'count';
  /** Width of the plotting area in pixels. */
  width?: number;
}

export interface Picture {
  png: Buffer;
  /** Size at 100% zoom, in pixels; the PNG itself has twice the resolution, for sharp printing. */
  width: number;
  height: number;
  /** Alternative text: the title and every figure, for screen readers (and for tests). */
  description: string;
}

const FONT = 'DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif';
const BAR_COLOUR = '#4472C4';
// Rendered at twice the displayed size, so the picture stays sharp when zoomed or printed.
const PIXEL_RATIO = 2;

/** The vega-lite spec of a horizontal bar chart with the value written at the end of each bar. */
export function barChartSpec(spec: BarChartSpec): TopLevelSpec {
  const percent = spec.format === 'percent';
  const axisFormat = percent ? '.0%' : ',d';
  const labelFormat = percent ? '.1%' : ',d';
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title: { text: spec.title, anchor: 'start', fontSize: 15 },
    width: spec.width ?? 380,
    height: { step: 22 },
    background: 'white',
    padding: 10,
    config: { font: FONT, axis: { labelFontSize: 12, titleFontSize: 12 }, view: { stroke: null } },
    data: { values: spec.bars.map((b) => ({ label: b.label, value: b.value })) },
    encoding: {
      y: {
        field: 'label',
        type: 'nominal',
        sort: null,
        title: null,
        axis: { labelLimit: 180 },
      },
      x: {
        field: 'value',
        type: 'quantitative',
        title: null,
        axis: { format: axisFormat, tickMinStep: percent ? 0.1 : 1 },
        scale: percent ? { domain: [0, 1] } : { domainMin: 0, nice: true },
      },
    },
    layer: [
      { mark: { type: 'bar', color: BAR_COLOUR } },
      {
        mark: { type: 'text', align: 'left', dx: 4, fontSize: 12 },
        encoding: { text: { field: 'value', type: 'quantitative', format: labelFormat } },
      },
    ],
  };
}

/** Draws the chart; an empty chart says so instead of showing empty axes. */
export async function barChart(spec: BarChartSpec): Promise<Picture> {
  const { bars } = spec;
  const vlSpec =
    bars.length > 0
      ? barChartSpec(spec)
      : ({
          title: { text: spec.title, anchor: 'start', fontSize: 15 },
          width: spec.width ?? 380,
          height: 40,
          background: 'white',
          padding: 10,
          config: { font: FONT, view: { stroke: null } },
          data: { values: [{ text: 'Nothing to show yet.' }] },
          mark: { type: 'text', align: 'left', fontSize: 12 },
          encoding: { text: { field: 'text', type: 'nominal' }, x: { value: 0 }, y: { value: 20 } },
        } as TopLevelSpec);
  const view = new vega.View(vega.parse(compile(vlSpec).spec), { renderer: 'none' });
  try {
    const svg = await view.toSVG();
    const png = new Resvg(svg, {
      fitTo: { mode: 'zoom', value: PIXEL_RATIO },
      font: { loadSystemFonts: true, defaultFontFamily: 'DejaVu Sans' },
    }).render();
    const description = `${spec.title}: ${
      bars.length > 0 ? bars.map((b) => `${b.label} ${formatValue(b.value, spec.format)}`).join('; ') : 'none'
    }`;
    return {
      png: png.asPng(),
      width: Math.round(png.width / PIXEL_RATIO),
      height: Math.round(png.height / PIXEL_RATIO),
      description,
    };
  } finally {
    view.finalize();
  }
}

export function formatValue(value: number, format: BarChartSpec['format']): string {
  return format === 'percent' ? `${(value * 100).toFixed(1)}%` : value.toLocaleString('en-US');
}

// The simulated tag report: hundreds of CSV rows per creative, across several tag types, drawn
// deterministically from the creative (id and url), in the column style of either dialect.
import type { Dialect } from './dialect';
import { draw, drawInt, sha256Hex } from './hash';

export interface TagReportRow {
  creativeId: string;
  tagType: string;
  tagName: string;
  tagValue: string;
  /** 0–1, two decimals. */
  confidence: number;
  /** Seconds into a video; null for a still image. */
  startTime: number | null;
  endTime: number | null;
}

const vocabulary: Readonly<Record<string, readonly string[]>> = {
  LABEL: ['Coffee', 'Cup', 'Person', 'Smile', 'Kitchen', 'Outdoor', 'Product', 'Hand', 'Table', 'City'],
  OBJECT: ['bottle', 'mug', 'phone', 'car', 'dog', 'laptop', 'chair', 'plant', 'shoe', 'bag'],
  TEXT: ['on-screen text', 'caption', 'call to action', 'legal line'],
  SPEECH: ['transcript', 'voice-over'],
  EMOTION: ['joy', 'surprise', 'calm', 'excitement', 'neutral'],
  COLOR: ['dominant color', 'accent color', 'background color'],
  LOGO: ['brand logo', 'partner logo', 'packshot'],
  SCENE: ['close-up', 'wide shot', 'indoor', 'outdoor', 'studio'],
};
const tagTypes = Object.keys(vocabulary);

// Text values with commas, quotes and line breaks, as real OCR and transcripts have: a reader must quote-parse.
const phrases = [
  'Shop now',
  'Fresh, every morning',
  'The "original" blend',
  'Terms apply.\nSee site for details',
  'Start your day right',
  '50% off, this week only',
];

const isStill = (url: string) => /\.(jpe?g|png|gif|webp)(\?|$)/i.test(url);

/** Rows the report holds for one creative. */
export function tagRowsFor(creative: { id: string; url: string }): TagReportRow[] {
  const seed = sha256Hex('aperture-report', creative.id, creative.url);
  const count = drawInt(seed, 'rows', 120, 420);
  const still = isStill(creative.url);
  const duration = drawInt(seed, 'duration', 6, 60);
  const rows: TagReportRow[] = [];
  for (let i = 0; i < count; i++) {
    const tagType = tagTypes[drawInt(seed, `type-${i}`, 0, tagTypes.length - 1)] as string;
    const names = vocabulary[tagType] as readonly string[];
    const tagName = names[drawInt(seed, `name-${i}`, 0, names.length - 1)] as string;
    let tagValue = tagName;
    if (tagType === 'TEXT' || tagType === 'SPEECH')
      tagValue = phrases[drawInt(seed, `text-${i}`, 0, phrases.length - 1)] as string;
    if (tagType === 'COLOR') tagValue = `#${sha256Hex(seed, `color-${i}`).slice(0, 6)}`;
    const start = still ? null : Math.round(draw(seed, `start-${i}`) * duration * 10) / 10;
    const end = start === null ? null : Math.round((start + 0.5 + draw(seed, `len-${i}`) * 4) * 10) / 10;
    rows.push({
      creativeId: creative.id,
      tagType,
      tagName,
      tagValue,
      confidence: Math.round((0.5 + draw(seed, `conf-${i}`) * 0.49) * 100) / 100,
      startTime: start,
      endTime: end,
    });
  }
  return rows;
}

/** The undocumented columns, as each dialect's reports spell them (the live one carries one more). */
const headers: Record<Dialect, readonly string[]> = {
  spec: ['Creative ID', 'Tag Type', 'Tag Name', 'Tag Value', 'Confidence', 'Start Time', 'End Time'],
  live: [
    'creative_id',
    'category',
    'name',
    'value',
    'confidence',
    'start_seconds',
    'end_seconds',
    'model_version',
  ],
};

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

export function csvHeader(dialect: Dialect): string {
  return `${headers[dialect].map(csvField).join(',')}\r\n`;
}

/** One creative's rows as CSV lines (CRLF, as spreadsheet exports write them). */
export function csvLines(dialect: Dialect, rows: readonly TagReportRow[]): string {
  let text = '';
  for (const r of rows) {
    const fields = [
      r.creativeId,
      r.tagType,
      r.tagName,
      r.tagValue,
      r.confidence.toFixed(2),
      r.startTime === null ? '' : String(r.startTime),
      r.endTime === null ? '' : String(r.endTime),
    ];
    if (dialect === 'live') fields.push('aperture-2.3');
    text += `${fields.map(csvField).join(',')}\r\n`;
  }
  return text;
}

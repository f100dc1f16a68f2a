// A tag report's rows, from CSV records to creative_tags values. The report's columns are not
// documented, so the recognisable ones are mapped by name and every row is also kept whole.
import { z } from 'zod';

/** What a CSV record is once csv-parse has read it with a header: text under each column name. */
export const csvRecordSchema = z.record(z.string(), z.string());
export type CsvRecord = z.infer<typeof csvRecordSchema>;

type Field = 'creativeId' | 'tagType' | 'tagName' | 'tagValue' | 'confidence' | 'startTime' | 'endTime';

/** Header spellings of each field, compared without case, spaces, dashes or underscores; first match wins. */
const aliases: Record<Field, readonly string[]> = {
  creativeId: ['creativeid', 'creativeidentifier', 'creative', 'mediaid', 'assetid', 'id'],
  tagType: ['tagtype', 'tagcategory', 'category', 'type', 'kind'],
  tagName: ['tagname', 'name', 'label', 'tag'],
  tagValue: ['tagvalue', 'value', 'text', 'detail'],
  confidence: ['confidence', 'confidencescore', 'score', 'probability'],
  startTime: ['starttime', 'start', 'startseconds', 'starttimeseconds', 'startsec', 'timestart', 'from'],
  endTime: ['endtime', 'end', 'endseconds', 'endtimeseconds', 'endsec', 'timeend', 'to'],
};

const squash = (header: string) => header.toLowerCase().replace(/[\s_\-.]+/g, '');

export type ColumnMap = Partial<Record<Field, string>>;

/** Which header holds each known field; fields without a recognisable header are absent. */
export function columnMapFor(headers: readonly string[]): ColumnMap {
  const bySquashed = new Map<string, string>();
  for (const header of headers) if (!bySquashed.has(squash(header))) bySquashed.set(squash(header), header);
  const map: ColumnMap = {};
  const taken = new Set<string>();
  for (const field of Object.keys(aliases) as Field[]) {
    for (const alias of aliases[field]) {
      const header = bySquashed.get(alias);
      if (header !== undefined && !taken.has(header)) {
        map[field] = header;
        taken.add(header);
        break;
      }
    }
  }
  return map;
}

const optionalText = (value: string | undefined) => {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
};

const number = z.coerce.number().finite();
const optionalNumber = (value: string | undefined) => {
  const text = optionalText(value);
  if (text === null) return null;
  const parsed = number.safeParse(text.replace(/%$/, ''));
  return parsed.success ? parsed.data : null;
};

export interface TagRowValues {
  creativeId: string | null;
  tagType: string | null;
  tagName: string | null;
  tagValue: string | null;
  confidence: number | null;
  startTime: number | null;
  endTime: number | null;
  raw: CsvRecord;
}

/**
 * One record's values. Confidence is normalised to 0–1 (a report may say 87 or 87% for 0.87);
 * a number that does not parse is left null, and is still in `raw`.
 */
export function toTagRow(record: CsvRecord, map: ColumnMap): TagRowValues {
  const at = (field: Field) => (map[field] === undefined ? undefined : record[map[field]]);
  const confidence = optionalNumber(at('confidence'));
  return {
    creativeId: optionalText(at('creativeId')),
    tagType: optionalText(at('tagType')),
    tagName: optionalText(at('tagName')),
    tagValue: optionalText(at('tagValue')),
    confidence: confidence === null ? null : confidence > 1 ? confidence / 100 : confidence,
    startTime: optionalNumber(at('startTime')),
    endTime: optionalNumber(at('endTime')),
    raw: record,
  };
}

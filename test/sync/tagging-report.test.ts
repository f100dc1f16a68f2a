import { describe, expect, it } from 'vitest';
import { tagJobSchema } from '../../src/sync/api/schemas';
import { columnMapFor, toTagRow } from '../../src/sync/tagging-report';

describe('columnMapFor and toTagRow', () => {
  it('maps the spec-style headers', () => {
    const map = columnMapFor([
      'Creative ID',
      'Tag Type',
      'Tag Name',
      'Tag Value',
      'Confidence',
      'Start Time',
      'End Time',
    ]);
    const row = toTagRow(
      {
        'Creative ID': 'A-1',
        'Tag Type': 'TEXT',
        'Tag Name': 'caption',
        'Tag Value': 'Fresh, every morning',
        Confidence: '0.87',
        'Start Time': '1.5',
        'End Time': '',
      },
      map,
    );
    expect(row).toMatchObject({
      creativeId: 'A-1',
      tagType: 'TEXT',
      tagName: 'caption',
      tagValue: 'Fresh, every morning',
      confidence: 0.87,
      startTime: 1.5,
      endTime: null,
    });
  });

  it('maps live-style headers, normalises a percentage confidence, and keeps unknown columns in raw', () => {
    const map = columnMapFor([
      'creative_id',
      'category',
      'name',
      'value',
      'confidence',
      'start_seconds',
      'end_seconds',
      'model_version',
    ]);
    const record = {
      creative_id: 'B',
      category: 'LOGO',
      name: 'brand logo',
      value: 'x',
      confidence: '87%',
      start_seconds: 'n/a',
      end_seconds: '3',
      model_version: '2.3',
    };
    const row = toTagRow(record, map);
    expect(row).toMatchObject({
      creativeId: 'B',
      tagType: 'LOGO',
      confidence: 0.87,
      startTime: null,
      endTime: 3,
    });
    expect(row.raw).toEqual(record);
  });
});

describe('tagJobSchema', () => {
  it('reads both spellings into one shape', () => {
    expect(
      tagJobSchema.parse({ jobId: 'j', status: 'completed', downloadUrlCsv: 'https://s/r.csv' }),
    ).toEqual({
      jobId: 'j',
      status: 'COMPLETED',
      message: null,
      downloadUrlCsv: 'https://s/r.csv',
      errors: {},
    });
    expect(
      tagJobSchema.parse({
        job_id: 'j',
        status: 'FAILED',
        message: 'Processed 1 out of 2 media.',
        download_url_csv: null,
        download_url_json: null,
        errors: { a: 'bad', b: { reason: 'x' } },
      }),
    ).toEqual({
      jobId: 'j',
      status: 'FAILED',
      message: 'Processed 1 out of 2 media.',
      downloadUrlCsv: null,
      errors: { a: 'bad', b: '{"reason":"x"}' },
    });
  });
});

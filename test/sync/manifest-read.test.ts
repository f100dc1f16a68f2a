import { describe, expect, it } from 'vitest';
import { manifestFormat } from '../../src/sync/manifest-read';

describe('manifestFormat', () => {
  it.each([
    ['spring.csv', 'csv'],
    ['SPRING.CSV', 'csv'],
    ['spring.tsv', 'csv'],
    ['spring.txt', 'csv'],
    ['spring.json', 'json'],
    ['spring.jsonl', 'jsonl'],
    ['spring.NDJSON', 'jsonl'],
    ['spring.xlsx', 'xlsx'],
    ['spring.xls', undefined],
    ['spring.xml', undefined],
    ['spring', undefined],
    ['spring.__proto__', undefined],
  ])('reads %s as %s', (name, format) => {
    expect(manifestFormat(`/drop/${name}`)).toBe(format);
  });
});

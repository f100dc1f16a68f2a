import { describe, expect, it } from 'vitest';
import {
  ColumnNotes,
  columnFor,
  fieldForHeader,
  foldHeader,
  HeaderRow,
  ObjectColumns,
} from '../../src/sync/manifest-columns';

describe('headers', () => {
  it('folds case, spaces, underscores, dashes, dots and a BOM away', () => {
    expect(foldHeader('Media ID')).toBe('mediaid');
    expect(foldHeader('media_id')).toBe('mediaid');
    expect(foldHeader('Media-Id')).toBe('mediaid');
    expect(foldHeader('\uFEFFWorkspace.ID')).toBe('workspaceid');
  });

  it.each([
    ['Media ID', 'id'],
    ['Asset ID', 'id'],
    ['id', 'id'],
    ['\uFEFFid', 'id'],
    ['workspace', 'workspaceId'],
    ['Workspace ID', 'workspaceId'],
    ['brand', 'brands'],
    ['Brands', 'brands'],
    ['Market', 'markets'],
    ['platform', 'channels'],
    ['Media URL', 'url'],
    ['Download-URL', 'url'],
    ['Asset Version', 'version'],
    ['DAM', 'source'],
    ['Title', 'name'],
    ['notes', 'description'],
    ['Tag', 'tagWanted'],
    ['tagging', 'tagWanted'],
    ['client_tags', 'clientTags'],
  ])('maps the header %j to the field %s', (header, field) => {
    expect(fieldForHeader(header)).toBe(field);
  });

  it('maps a header it does not know to no field', () => {
    expect(fieldForHeader('colour')).toBeUndefined();
    expect(fieldForHeader('')).toBeUndefined();
  });
});

describe('tag columns', () => {
  it.each([
    ['tag:campaign', 'campaign'],
    ['Tag: Campaign Name ', 'Campaign Name'],
    ['TAG:season', 'season'],
    ['\uFEFFtag:a:b', 'a:b'],
  ])('reads %j as the client tag %j', (header, tag) => {
    expect(columnFor(header)).toEqual({ tag });
  });

  it('uses no column for a tag without a name', () => {
    expect(columnFor('tag:')).toBeUndefined();
    expect(columnFor('tag: ')).toBeUndefined();
  });
});

describe('HeaderRow', () => {
  it('maps a row to its fields, gathering tag columns, skipping empty cells and unknown columns', () => {
    const notes = new ColumnNotes();
    const header = new HeaderRow(
      ['Media ID', 'URL', 'Colour', 'tag:campaign', 'Tag', 'tag:season', ''],
      notes,
    );
    const record = header.record(['a1', 'https://x.example/a1', 'red', 'spring', 'no', '', 'extra']);
    expect(record).toEqual({
      id: 'a1',
      url: 'https://x.example/a1',
      tagWanted: 'no',
      clientTags: { campaign: 'spring' },
    });
    expect(Object.getPrototypeOf(record.clientTags)).toBeNull();
    expect(notes.unknownColumns).toEqual(['Colour']);
  });

  it('notes two columns that give one field, and the last filled one wins', () => {
    const notes = new ColumnNotes();
    const header = new HeaderRow(['id', 'URL', 'Media URL'], notes);
    expect(header.record(['a1', 'https://x.example/1', 'https://x.example/2']).url).toBe(
      'https://x.example/2',
    );
    expect(header.record(['a1', 'https://x.example/1', '']).url).toBe('https://x.example/1');
    expect(notes.message()).toBe(
      'columns URL, Media URL all give url: where more than one is filled, the last one is used',
    );
  });

  it('names at most 50 unknown columns, then counts the rest', () => {
    const notes = new ColumnNotes();
    new HeaderRow(['id', 'url', ...Array.from({ length: 60 }, (_, i) => `c${i}`)], notes);
    expect(notes.unknownColumns).toHaveLength(50);
    expect(notes.message()).toMatch(/c49 and 10 more \(rename a column to use it/);
  });
});

describe('ObjectColumns', () => {
  it('maps keys to fields, merging a clientTags object with tag: keys (which win)', () => {
    const notes = new ColumnNotes();
    const columns = new ObjectColumns(notes);
    const item = JSON.parse(
      '{"Media ID": "a1", "tag:campaign": "spring", "clientTags": {"campaign": "old", "season": "summer"}, "x": 1, "__proto__": 5}',
    );
    expect(columns.record(item)).toEqual({
      id: 'a1',
      clientTags: { campaign: 'spring', season: 'summer' },
    });
    expect(notes.unknownColumns).toEqual(['x', '__proto__']);
  });

  it('keeps a clientTags value that is not an object for the schema to reject', () => {
    const columns = new ObjectColumns(new ColumnNotes());
    expect(columns.record({ clientTags: 'campaign' })).toEqual({ clientTags: 'campaign' });
  });
});

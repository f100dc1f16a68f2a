// JSON manifests: an array of assets, or an object holding one array of assets. The file is
// streamed: a scanner follows the document's structure chunk by chunk and hands over the text
// of each item of the asset array, which alone is parsed. So a large export never sits in
// memory whole, and the items before a syntax error are still read.
import { createReadStream } from 'node:fs';
import type { ObjectColumns } from './manifest-columns';
import { objectReading, objectRecord } from './manifest-object';
import {
  ManifestParseError,
  type ManifestReading,
  type ManifestRecord,
  maxRecordChars,
} from './manifest-record';

export function readJson(path: string): ManifestReading {
  return objectReading(path, (columns) => records(path, columns));
}

const example = 'each item must be an object of asset fields such as {"id": "a1", "url": "https://…"}';

async function* records(path: string, columns: ObjectColumns): AsyncGenerator<ManifestRecord> {
  const scanner = new AssetArrayScanner(maxRecordChars);
  const stream = createReadStream(path, { encoding: 'utf8', highWaterMark: 256 * 1024 });
  try {
    for await (const chunk of stream as AsyncIterable<string>) {
      const items: ScannedItem[] = [];
      let broken: unknown;
      try {
        scanner.feed(chunk, items);
      } catch (error) {
        broken = error;
      }
      // The items completed before a break in the structure are still read.
      for (const item of items) yield record(item, columns);
      if (broken) throw broken;
    }
  } finally {
    stream.destroy();
  }
  scanner.end();
}

function record(item: ScannedItem, columns: ObjectColumns): ManifestRecord {
  const line = item.number;
  if (item.text === undefined) {
    return { line, problem: `item ${line} is larger than ${maxRecordChars} characters: ${example}` };
  }
  return objectRecord(line, item.text, columns, { where: `item ${line}`, example });
}

/** One item of the asset array: its number (from 1) and its text, undefined when too large to keep. */
export interface ScannedItem {
  number: number;
  text: string | undefined;
}

const [QUOTE, BACKSLASH, COMMA, COLON, OPEN_ARRAY, CLOSE_ARRAY, OPEN_OBJECT, CLOSE_OBJECT] = [
  34, 92, 44, 58, 91, 93, 123, 125,
];
const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9 || c === 0xfeff;
const stringEnd = /["\\]/g;
/** Containers deeper than this are only counted, not checked for matching brackets. */
const checkedDepth = 256;

/**
 * Follows a JSON document's structure (brackets, strings, commas) without building it, and
 * yields the text of each item of the asset array: the root array, or the one array value of
 * the root object. The items' own syntax is left to JSON.parse.
 */
export class AssetArrayScanner {
  private depth = 0;
  /** The open containers' kinds (`[` or `{`), for the first `checkedDepth` levels. */
  private readonly kinds: number[] = [];
  private inString = false;
  private escaped = false;
  private root: 'none' | 'array' | 'object' | 'closed' = 'none';
  /** The depth of the asset array's content, once it is open; 0 before. */
  private itemsDepth = 0;
  private arraysSeen = 0;
  /** In the root object: the next value at depth 1 follows a `:`. */
  private expectValue = false;
  private itemNumber = 0;
  /** In the asset array: an item is being read, and what kind (a container, a string, or a bare literal). */
  private item: 'none' | 'container' | 'string' | 'literal' = 'none';
  /** Between two items: whether an item came since the last comma (or the opening bracket). */
  private itemSinceComma = false;
  private parts: string[] = [];
  private size = 0;
  private tooLarge = false;
  private line = 1;
  private lineStart = 0;
  private offset = 0;

  constructor(private readonly maxItemChars: number) {}

  /** Adds the items completed within `chunk` to `done`. Throws ManifestParseError where the structure breaks. */
  feed(chunk: string, done: ScannedItem[]): void {
    let start = this.item === 'none' ? -1 : 0;
    const finishItem = (end: number) => {
      this.keep(chunk, start, end);
      done.push({ number: this.itemNumber, text: this.tooLarge ? undefined : this.parts.join('') });
      this.parts = [];
      this.size = 0;
      this.tooLarge = false;
      this.item = 'none';
      start = -1;
    };
    for (let i = 0; i < chunk.length; i++) {
      if (this.inString) {
        if (this.escaped) {
          this.escaped = false;
          continue;
        }
        stringEnd.lastIndex = i;
        const found = stringEnd.exec(chunk);
        if (!found) break;
        i = found.index;
        if (chunk.charCodeAt(i) === BACKSLASH) {
          this.escaped = true;
          continue;
        }
        this.inString = false;
        if (this.item === 'string' && this.depth === this.itemsDepth) finishItem(i + 1);
        continue;
      }
      const c = chunk.charCodeAt(i);
      if (c === 10) {
        this.line++;
        this.lineStart = this.offset + i + 1;
      }
      if (
        this.item === 'literal' &&
        this.depth === this.itemsDepth &&
        (isSpace(c) || c === COMMA || c === CLOSE_ARRAY)
      ) {
        finishItem(i);
      }
      if (isSpace(c)) continue;

      if (this.root === 'none') {
        if (c === OPEN_ARRAY) {
          this.root = 'array';
          this.open(c);
          this.openAssetArray();
        } else if (c === OPEN_OBJECT) {
          this.root = 'object';
          this.open(c);
        } else throw this.error(notAnArray);
        continue;
      }
      if (this.root === 'closed') {
        this.fail(
          i,
          'there is more after the end of the JSON document: if it holds one object per line, it is JSON Lines, so name it .jsonl',
        );
      }

      // Between the items of the asset array.
      if (this.itemsDepth > 0 && this.depth === this.itemsDepth && this.item === 'none') {
        if (c === COMMA) {
          if (!this.itemSinceComma) this.fail(i, 'a comma with no item before it');
          this.itemSinceComma = false;
          continue;
        }
        if (c === CLOSE_ARRAY) {
          this.close(c, i);
          this.itemsDepth = -1;
          continue;
        }
        if (this.itemSinceComma) this.fail(i, 'a missing comma between two items');
        this.itemNumber++;
        this.itemSinceComma = true;
        start = i;
        if (c === QUOTE) {
          this.item = 'string';
          this.inString = true;
        } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
          this.item = 'container';
          this.open(c);
        } else this.item = 'literal';
        continue;
      }

      if (c === QUOTE) {
        this.inString = true;
      } else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
        const assetArray = this.root === 'object' && this.depth === 1 && this.expectValue && c === OPEN_ARRAY;
        this.open(c);
        if (assetArray) {
          if (++this.arraysSeen > 1) {
            throw this.error(`${notAnArray}; this object holds more than one array`);
          }
          this.openAssetArray();
        }
      } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
        this.close(c, i);
        if (this.item === 'container' && this.depth === this.itemsDepth) finishItem(i + 1);
      }
      if (this.root === 'object' && this.depth === 1) {
        if (c === COLON) this.expectValue = true;
        else if (c === COMMA) this.expectValue = false;
      }
    }
    if (start !== -1) this.keep(chunk, start, chunk.length);
    this.offset += chunk.length;
  }

  /** Checks that the document ended whole and held an asset array. */
  end(): void {
    if (this.inString || this.depth > 0) {
      throw this.error(
        `not valid JSON: the file ends before the document is complete, at line ${this.line}${this.inItem()}`,
      );
    }
    if (this.item === 'literal') {
      throw this.error(`not valid JSON: the file ends in the middle of item ${this.itemNumber}`);
    }
    if (this.arraysSeen === 0) throw this.error(notAnArray);
  }

  private openAssetArray(): void {
    this.itemsDepth = this.depth;
    this.itemSinceComma = false;
    if (this.root === 'array') this.arraysSeen = 1;
  }

  private open(c: number): void {
    if (this.depth < checkedDepth) this.kinds.push(c);
    this.depth++;
    // A container value of the root object has begun: its contents are not the root's values.
    if (this.root === 'object' && this.depth === 2) this.expectValue = false;
  }

  private close(c: number, i: number): void {
    if (this.depth === 0) this.fail(i, `an unexpected "${String.fromCharCode(c)}"`);
    if (this.depth <= checkedDepth) {
      const opened = this.kinds.pop();
      if (opened !== (c === CLOSE_ARRAY ? OPEN_ARRAY : OPEN_OBJECT)) {
        this.fail(i, `a "${String.fromCharCode(c)}" that closes nothing opened with it`);
      }
    }
    this.depth--;
    if (this.depth === 0) this.root = 'closed';
    if (this.depth === 1 && this.root === 'object') this.expectValue = false;
  }

  /** Adds `chunk[start, end)` to the item being read, unless the item has grown past the limit. */
  private keep(chunk: string, start: number, end: number): void {
    if (this.tooLarge || end <= start) return;
    this.size += end - start;
    if (this.size > this.maxItemChars) {
      this.tooLarge = true;
      this.parts = [];
    } else this.parts.push(chunk.slice(start, end));
  }

  /** Where in the asset array the scanner is, for a message: inside an item, or after one. */
  private inItem(): string {
    if (this.itemsDepth <= 0 || this.itemNumber === 0) return '';
    return this.item === 'none' ? ` (after item ${this.itemNumber})` : ` (in item ${this.itemNumber})`;
  }

  /** The error's line is the first item that could not be read; null outside the asset array. */
  private error(message: string): ManifestParseError {
    if (this.itemsDepth <= 0) return new ManifestParseError(message, null);
    return new ManifestParseError(message, this.item === 'none' ? this.itemNumber + 1 : this.itemNumber);
  }

  private fail(i: number, what: string): never {
    const column = this.offset + i - this.lineStart + 1;
    throw this.error(`not valid JSON at line ${this.line}, column ${column}${this.inItem()}: ${what}`);
  }
}

const notAnArray =
  'JSON must be an array of assets, or an object with one array of assets (e.g. {"assets": [...]})';

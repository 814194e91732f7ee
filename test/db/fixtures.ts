/** Databases, page rows and contents for the database tests (schema.test.ts, chunks.test.ts). */
import Dexie from 'dexie';
import type { IngestedPage, PageContent } from '../../src/core/types';
import { createDataset } from '../../src/db/queries';
import type { WorkbenchDb } from '../../src/db/schema';

let n = 0;
const names: string[] = [];

/** A database name not used before; deleteFreshDbs (after each test) deletes it. */
export function freshName(): string {
  const name = `test-db-${++n}-${Date.now()}`;
  names.push(name);
  return name;
}

/** Delete the databases named by freshName so far. */
export async function deleteFreshDbs(): Promise<void> {
  for (const name of names.splice(0)) await Dexie.delete(name);
}

/** Page `seq` of host `host`, with a short text; fingerprints alternate between two values. */
export function page(seq: number, host = 'a.test'): IngestedPage {
  return {
    page: {
      seq,
      url: `http://${host}/p${seq}`,
      normUrl: `http://${host}/p${seq}`,
      host,
      status: 200,
      statuses: [200],
      mime: 'text/html',
      sizeMin: 10,
      sizeMax: 10,
      hits: 1,
      fetchedAt: '',
      recordType: 'response',
      title: `Page ${seq}`,
      textLength: 5,
      fingerprint: `fp${seq % 2}`,
      digest: '',
      charset: 'utf-8',
      revisitOf: -1,
      offset: seq * 100,
      note: '',
    },
    content: { seq, text: `text ${seq}`, outlinks: [], rawOutlinks: [], headers: [] },
  };
}

/**
 * Contents that test the packing, by seq % 8: plain ASCII; CJK and emoji (astral, two UTF-16 units);
 * lone surrogates (UTF-8 has no code for them); all empty; a leading U+FEFF (a decoder's BOM);
 * Latin-1; a NUL and line breaks; template hints (also an empty list, which differs from none).
 */
export function awkward(seq: number): PageContent {
  const base = {
    seq,
    outlinks: [] as string[],
    rawOutlinks: [] as string[],
    headers: [] as [string, string][],
  };
  switch (seq % 8) {
    case 0:
      return {
        ...base,
        text: `plain text ${seq}`,
        outlinks: [`http://a.test/${seq}`, 'http://a.test/x'],
        rawOutlinks: [`/${seq}`, 'x'],
        headers: [['Content-Type', 'text/html']],
      };
    case 1:
      return {
        ...base,
        text: `日本語のテキスト ${seq} 😀👍🏽 𠮷野家`,
        outlinks: ['http://例え.jp/パス?q=😀'],
        rawOutlinks: ['パス?q=😀'],
        headers: [
          ['X-Emoji', '🎉'],
          ['Title', '中文'],
        ],
        templateHints: [1, 4294967295, 0],
      };
    case 2:
      return {
        ...base,
        text: `abc\ud800def ${seq} \udfff end \ud83d`,
        outlinks: ['http://x.test/\udc00', 'http://x.test/ok'],
        rawOutlinks: ['\ud800\ud800'.slice(0, 1) + 'ok'],
        headers: [['H', '😀\ud83d']],
      };
    case 3:
      return { ...base, text: '', outlinks: [''], rawOutlinks: [''], headers: [['', '']], templateHints: [] };
    case 4:
      return { ...base, text: `\ufeffbom first ${seq}`, headers: [['\ufeff', '\ufeffv']] };
    case 5:
      return { ...base, text: `café naïve ÿ ${seq}`, templateHints: [123456789] };
    case 6:
      // A surrogate pair split between two strings: each alone is ill-formed, the page as a whole is not.
      return {
        ...base,
        text: `nul\0 and\r\nlines\n${seq}\u2028`,
        outlinks: ['a', 'b\ud83d', '\ude00c'],
        rawOutlinks: [],
        headers: [['X-\ud83d', '\ude00']],
      };
    default:
      return { ...base, text: `x`.repeat(seq) };
  }
}

/** A new WARC dataset row (1 byte, not yet read) named `name`. */
export function warcDataset(
  db: WorkbenchDb,
  name: string,
  fileName = name,
  compressed = false,
): Promise<number> {
  return createDataset(db, { name, fileName, bytes: 1, format: 'warc', compressed });
}

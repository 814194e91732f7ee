import 'fake-indexeddb/auto';
import Dexie from 'dexie';
import { afterEach, describe, expect, it } from 'vitest';
import {
  countStoredPages,
  createDataset,
  deleteDataset,
  dropLastPages,
  forEachPageWithContent,
  HEARTBEAT_STALE_MS,
  loadContent,
  loadContents,
  loadPages,
  markInterrupted,
  renameDataset,
  writeBatch,
} from '../../src/db/queries';
import { ChunkReader, chunkBytes, packChunk } from '../../src/db/chunks';
import { SCHEMA_V1, SCHEMA_V6, WorkbenchDb } from '../../src/db/schema';
import type { IngestedPage, PageContent } from '../../src/core/types';

let n = 0;
const names: string[] = [];
function freshName(): string {
  const name = `test-db-${++n}-${Date.now()}`;
  names.push(name);
  return name;
}
afterEach(async () => {
  for (const name of names.splice(0)) await Dexie.delete(name);
});

function page(seq: number, host = 'a.test'): IngestedPage {
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

type StoredContentLike = PageContent & { datasetId: number };

/** The strings of a content in packed order (text, outlinks, raw outlinks, header names and values). */
function joinedStrings(c: PageContent): string {
  return [c.text, ...c.outlinks, ...c.rawOutlinks, ...c.headers.flat()].join('');
}

/**
 * Contents that test the packing, by seq % 8: plain ASCII; CJK and emoji (astral, two UTF-16 units);
 * lone surrogates (UTF-8 has no code for them); all empty; a leading U+FEFF (a decoder's BOM);
 * Latin-1; a NUL and line breaks; template hints (also an empty list, which differs from none).
 */
function awkward(seq: number): PageContent {
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

describe('Dexie schema', () => {
  it('migrates a version-1 database: rows kept, datasets gain warnings', async () => {
    const name = freshName();
    const v1 = new Dexie(name);
    v1.version(1).stores(SCHEMA_V1);
    await v1.open();
    // A v1 dataset row had no warnings fields.
    await v1
      .table('datasets')
      .add({ name: 'old', fileName: 'old.warc', status: 'ready', created: '2024-01-01' });
    await v1.table('pages').add({ ...page(0).page, datasetId: 1 });
    await v1.table('pages').add({ ...page(1).page, datasetId: 1 });
    v1.close();

    const db = new WorkbenchDb(name);
    await db.open();
    expect(db.verno).toBe(11);
    const ds = await db.datasets.get(1);
    expect(ds?.name).toBe('old');
    expect(ds?.warnings).toEqual([]);
    expect(ds?.warningCount).toBe(0);
    expect((await loadPages(db, 1)).map((p) => p.seq)).toEqual([0, 1]);
    db.close();
  });

  it('moves a version-6 database’s per-page contents into chunks (v7) and drops the old table (v8)', async () => {
    const name = freshName();
    const v6 = new Dexie(name);
    v6.version(6).stores(SCHEMA_V6);
    await v6.open();
    // 1,203 pages in dataset 1 (more than one migration step of 500) and 3 in dataset 2.
    const rows = [
      ...Array.from({ length: 1203 }, (_, i) => [1, i] as const),
      ...[0, 1, 2].map((i) => [2, i] as const),
    ];
    await v6.table('pages').bulkAdd(rows.map(([datasetId, seq]) => ({ ...page(seq).page, datasetId })));
    await v6.table('contents').bulkAdd(
      rows.map(([datasetId, seq]) => ({
        ...awkward(seq),
        text: `dataset ${datasetId} text ${seq}`,
        datasetId,
      })),
    );
    v6.close();

    const db = new WorkbenchDb(name);
    await db.open();
    expect(db.verno).toBe(11);
    expect(db.tables.map((t) => t.name)).not.toContain('contents');
    for (const [datasetId, seq] of rows)
      expect(await loadContent(db, datasetId, seq)).toEqual({
        ...awkward(seq),
        text: `dataset ${datasetId} text ${seq}`,
        datasetId,
      });
    expect(await db.chunks.count()).toBeGreaterThanOrEqual(4);
    expect(await db.chunks.count()).toBeLessThanOrEqual(5);
    const seen: number[] = [];
    await forEachPageWithContent(db, 1, 300, (batch) => {
      for (const { page: p, content } of batch) {
        expect(content?.text).toBe(`dataset 1 text ${p.seq}`);
        seen.push(p.seq);
      }
    });
    expect(seen).toEqual(rows.filter(([d]) => d === 1).map(([, s]) => s));
    db.close();
  });

  it('gives back whole batches when the last pages are dropped (a chunk holds a batch’s contents)', async () => {
    const db = new WorkbenchDb(freshName());
    const a = await createDataset(db, {
      name: 'a',
      fileName: 'a',
      bytes: 1,
      format: 'warc',
      compressed: false,
    });
    await writeBatch(
      db,
      a,
      [0, 1, 2, 3].map((s) => page(s)),
    );
    await writeBatch(
      db,
      a,
      [4, 5, 6, 7].map((s) => page(s)),
    );
    await writeBatch(
      db,
      a,
      [8, 9].map((s) => page(s)),
    );
    // The last 3 pages lie in the last two batches: both go, and nothing of them is left behind.
    await dropLastPages(db, a, 3);
    expect(await countStoredPages(db, a)).toBe(4);
    expect((await loadPages(db, a)).map((p) => p.seq)).toEqual([0, 1, 2, 3]);
    expect(await db.chunks.count()).toBe(1);
    expect((await loadContent(db, a, 3))?.text).toBe('text 3');
    expect(await loadContent(db, a, 5)).toBeUndefined();
    db.close();
  });

  it('writes batches, reads pages and content, and deletes a dataset with all its pages', async () => {
    const db = new WorkbenchDb(freshName());
    const a = await createDataset(db, {
      name: 'a',
      fileName: 'a.warc',
      bytes: 1,
      format: 'warc',
      compressed: false,
    });
    const b = await createDataset(db, {
      name: 'b',
      fileName: 'b.warc',
      bytes: 1,
      format: 'warc',
      compressed: false,
    });
    await writeBatch(db, a, [page(0), page(1), page(2)]);
    await writeBatch(db, b, [page(0, 'b.test')]);
    expect((await loadPages(db, a)).map((p) => p.seq)).toEqual([0, 1, 2]);
    expect((await loadContent(db, a, 2))?.text).toBe('text 2');
    await deleteDataset(db, a);
    expect(await loadPages(db, a)).toEqual([]);
    expect(await loadContent(db, a, 2)).toBeUndefined();
    expect(await db.datasets.get(a)).toBeUndefined();
    // The other dataset is untouched.
    expect((await loadPages(db, b)).map((p) => p.host)).toEqual(['b.test']);
    db.close();
  });

  it('marks a dataset whose ingest stopped beating as interrupted, not a live one', async () => {
    const db = new WorkbenchDb(freshName());
    const stale = await createDataset(db, {
      name: 's',
      fileName: 's.warc',
      bytes: 1,
      format: 'warc',
      compressed: false,
    });
    const live = await createDataset(db, {
      name: 'l',
      fileName: 'l.warc',
      bytes: 1,
      format: 'warc',
      compressed: false,
    });
    const now = Date.now();
    await db.datasets.update(stale, { heartbeat: now - HEARTBEAT_STALE_MS - 1 });
    expect(await markInterrupted(db, now)).toBe(1);
    expect((await db.datasets.get(stale))?.status).toBe('interrupted');
    expect((await db.datasets.get(stale))?.error?.message).toMatch(/s\.warc: ingest was interrupted/);
    expect((await db.datasets.get(live))?.status).toBe('ingesting');
    db.close();
  });

  it('renames a dataset, refuses a blank name, and counts the bytes its pages store', async () => {
    const db = new WorkbenchDb(freshName());
    const a = await createDataset(db, {
      name: 'crawl.warc.gz',
      fileName: 'crawl.warc.gz',
      bytes: 1,
      format: 'warc',
      compressed: true,
    });
    expect(await renameDataset(db, a, '  April   crawl ')).toBe('April crawl');
    expect((await db.datasets.get(a))?.name).toBe('April crawl');
    expect((await db.datasets.get(a))?.fileName).toBe('crawl.warc.gz');
    await expect(renameDataset(db, a, '   ')).rejects.toThrow(/needs a name/);
    await writeBatch(db, a, [page(0), page(1)]);
    const one = (await db.datasets.get(a))?.storedBytes ?? 0;
    expect(one).toBeGreaterThan(2 * 'http://a.test/p0'.length);
    await writeBatch(db, a, [page(2), page(3)]);
    expect((await db.datasets.get(a))?.storedBytes).toBeCloseTo(2 * one, -1);
    db.close();
  });

  it('round-trips awkward contents through packed chunks: CJK, emoji, lone surrogates, BOM, empties, 500 pages', async () => {
    const db = new WorkbenchDb(freshName());
    const a = await createDataset(db, {
      name: 'a',
      fileName: 'a',
      bytes: 1,
      format: 'warc',
      compressed: false,
    });
    const batch = Array.from({ length: 500 }, (_, seq) => ({ page: page(seq).page, content: awkward(seq) }));
    await writeBatch(db, a, batch);
    await writeBatch(
      db,
      a,
      [500, 501].map((seq) => ({ page: page(seq).page, content: awkward(seq) })),
    );
    expect(await db.chunks.count()).toBe(2);
    // Every field as written, by each way of reading.
    const pages = await loadPages(db, a);
    const want = pages.map((p) => ({ ...awkward(p.seq), datasetId: a }));
    expect(await loadContents(db, a, pages)).toEqual(want);
    for (const seq of [0, 1, 2, 3, 4, 5, 6, 7, 499, 500, 501])
      expect(await loadContent(db, a, seq)).toEqual({ ...awkward(seq), datasetId: a });
    const seen: (StoredContentLike | undefined)[] = [];
    await forEachPageWithContent(db, a, 77, (b) => {
      for (const x of b) seen.push(x.content);
    });
    expect(seen).toEqual(want);
    // A lone surrogate survives exactly (UTF-8 could not hold it).
    const lone = await loadContent(db, a, 2);
    expect(lone?.text.charCodeAt(3)).toBe(0xd800);
    expect(lone?.text).not.toContain('\ufffd');
    expect(lone?.outlinks[0]).toBe('http://x.test/\udc00');
    db.close();
  });

  it('packs a page’s strings into one string, cut apart again by their lengths', () => {
    const contents = Array.from({ length: 16 }, (_, seq) => awkward(seq));
    const row = packChunk(1, 0, contents);
    expect(row.pages).toEqual(contents.map(joinedStrings));
    expect(row.lengths).toBeInstanceOf(Uint16Array);
    // Four counts a page: outlinks, raw outlinks, headers, hints (an empty list is not none).
    expect(Array.from(row.counts.subarray(3 * 4, 5 * 4))).toEqual([1, 1, 1, 0, 0, 0, 1, -1]);
    const r = new ChunkReader(row);
    // Any order, each page alone; the same object when asked again.
    for (const i of [15, 2, 9, 0, 6, 1]) expect(r.at(i)).toEqual(contents[i]);
    expect(r.get(6)).toBe(r.at(6));
    expect(r.get(99)).toBeUndefined();
    // Bytes as V8 writes them: a Latin-1 page a byte a character, any other two.
    const ascii = packChunk(1, 0, [awkward(0)]);
    const cjk = packChunk(1, 0, [awkward(1)]);
    expect(chunkBytes(cjk) - cjk.lengths.byteLength - chunkBytes(ascii) + ascii.lengths.byteLength).toBe(
      2 * joinedStrings(awkward(1)).length - joinedStrings(awkward(0)).length + 8 * 3,
    );
    // A chunk of texts longer than 65,535 characters keeps their lengths.
    const long = { seq: 0, text: 'é'.repeat(70_000) + '日本', outlinks: [], rawOutlinks: [], headers: [] };
    const big = packChunk(1, 0, [long]);
    expect(big.lengths).toBeInstanceOf(Uint32Array);
    expect(new ChunkReader(big).at(0)).toEqual(long);
  });
});

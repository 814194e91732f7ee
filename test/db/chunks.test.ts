import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { PageContent } from '../../src/core/types';
import { ChunkReader, chunkBytes, packChunk } from '../../src/db/chunks';
import { forEachPageWithContent, loadContent, loadContents } from '../../src/db/page-contents';
import { loadPages } from '../../src/db/page-rows';
import { flushMeter, StoreMeter, writeBatch } from '../../src/db/page-writes';
import { WorkbenchDb } from '../../src/db/schema';
import { awkward, deleteFreshDbs, freshName, page, warcDataset } from './fixtures';

afterEach(deleteFreshDbs);

type StoredContentLike = PageContent & { datasetId: number };

/** The strings of a content in packed order (text, outlinks, raw outlinks, header names and values). */
function joinedStrings(c: PageContent): string {
  return [c.text, ...c.outlinks, ...c.rawOutlinks, ...c.headers.flat()].join('');
}

/** A batch's contents packed into one chunk (src/db/chunks.ts), alone and through the database. */
describe('packed chunks', () => {
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

  it('stores a text once a chunk: its copies (the same page under other URLs) point to the first', async () => {
    const story = 'The harbour cranes were idle all week. '.repeat(20);
    const other = 'Barges waited upstream for the tide. '.repeat(20);
    const c = (seq: number, text: string): PageContent => ({
      seq,
      text,
      outlinks: [`http://news.test/${seq}/next`],
      rawOutlinks: ['next'],
      headers: [['content-type', 'text/html']],
    });
    // Copies as the body cache gives them (the same string) and as another read would (an equal one).
    const contents = [
      c(0, story),
      c(1, other),
      c(2, story),
      c(3, story.slice(0, 5) + story.slice(5)),
      c(4, 'short'),
      c(5, 'short'),
    ];
    const row = packChunk(1, 0, contents);
    expect(Array.from(row.textOf!)).toEqual([-1, -1, 0, 0, -1, -1]); // short texts stay as they are
    expect(row.pages[2].startsWith('http://news.test/2/next')).toBe(true);
    expect(chunkBytes(row)).toBeLessThan(chunkBytes(packChunk(1, 0, [contents[0], contents[1]])) * 2);
    const r = new ChunkReader(row);
    for (const i of [3, 2, 0, 5, 1, 4]) expect(r.at(i)).toEqual(contents[i]);
    // Through the database, one page at a time (the page detail reads a copy before its original).
    const db = new WorkbenchDb(freshName());
    const a = await warcDataset(db, 'a');
    await writeBatch(
      db,
      a,
      contents.map((content) => ({ page: page(content.seq).page, content })),
    );
    expect((await loadContent(db, a, 3))?.text).toBe(story);
    expect((await loadContent(db, a, 1))?.text).toBe(other);
    // Nothing shared: no textOf at all.
    expect(packChunk(1, 0, [contents[0], contents[1]]).textOf).toBeUndefined();
    db.close();
  });

  it('round-trips awkward contents through packed chunks: CJK, emoji, lone surrogates, BOM, empties, 500 pages', async () => {
    const db = new WorkbenchDb(freshName());
    const a = await warcDataset(db, 'a');
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

  it('adds stored bytes to the dataset row at most once a second with a meter, all of them by the flush', async () => {
    const db = new WorkbenchDb(freshName());
    const a = await warcDataset(db, 'a');
    const b = await warcDataset(db, 'b');
    const batches = [0, 1, 2, 3].map((k) =>
      Array.from({ length: 10 }, (_, i) => ({ page: page(k * 10 + i).page, content: awkward(k * 10 + i) })),
    );
    // Without a meter: every batch rewrites the row (the reference sum).
    for (const x of batches) await writeBatch(db, a, x);
    const want = (await db.datasets.get(a))!.storedBytes!;
    expect(want).toBeGreaterThan(0);
    const meter = new StoreMeter();
    for (const x of batches) await writeBatch(db, b, x, meter);
    // The first batch touched the row; the others, within a second, wait in the meter.
    const before = (await db.datasets.get(b))!.storedBytes!;
    expect(before).toBeGreaterThan(0);
    expect(before).toBeLessThan(want);
    expect(before + meter.pending).toBe(want);
    // Pages stored so far count on the row while it is ingesting (the header shows them live).
    expect((await db.datasets.get(b))!.pages + meter.pendingPages).toBe(40);
    await flushMeter(db, b, meter);
    expect((await db.datasets.get(b))!.storedBytes).toBe(want);
    expect((await db.datasets.get(b))!.pages).toBe(40);
    expect(meter.pending).toBe(0);
    // A meter whose last touch is a second old touches the row again with the next batch.
    meter.last -= 1000;
    await writeBatch(db, b, batches[0], meter);
    expect(meter.pending).toBe(0);
    db.close();
  });
});

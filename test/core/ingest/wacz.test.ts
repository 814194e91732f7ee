import { unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { IngestError } from '../../../src/core/ingest/errors';
import { ingestCrawl, SOURCE_SEQ_STRIDE } from '../../../src/core/ingest/many-files';
import { parsePagesJsonl } from '../../../src/core/ingest/pages-jsonl';
import { bytesSource, openWacz, readZipDirectory } from '../../../src/core/ingest/wacz';
import type { IngestedPage, IngestProgress } from '../../../src/core/types';
import {
  expectedTitles,
  fixtureBytes,
  fixtureCounts,
  ingestBytes,
  watchedSource,
  ingestFiles,
} from '../helpers';

const c = fixtureCounts['crawl.wacz'] as {
  pages: number;
  html_pages: number;
  warcs: number;
  listed: number;
  listed_found: number;
  sources: string[];
};

/** A ByteSource that records every range read, to show a WACZ is never read whole. */
const watched = watchedSource;

const readCrawl = ingestFiles;

describe('WACZ 1.1.1 (crawl.wacz)', () => {
  it('is sniffed from its content: a ZIP whose directory holds datapackage.json', async () => {
    const bytes = fixtureBytes('crawl.wacz');
    const renamed = bytesSource('download.bin', bytes);
    const w = await openWacz(renamed, bytes.subarray(0, 4));
    expect(w).not.toBeNull();
    expect(w!.version).toBe('1.1.1');
    expect(w!.archives.map((e) => e.name)).toEqual(['archive/data.warc.gz', 'archive/data-2.warc']);
    expect(w!.archives.map((e) => e.method)).toEqual([0, 8]); // stored and deflated members
    expect(w!.pageLists.map((e) => e.name)).toEqual(['pages/pages.jsonl']);
    const zip = fixtureBytes('not-wacz.zip');
    expect(await openWacz(bytesSource('not-wacz.zip', zip), zip.subarray(0, 4))).toBeNull();
    const warc = fixtureBytes('tiny.warc');
    expect(await openWacz(bytesSource('tiny.warc', warc), warc.subarray(0, 4))).toBeNull();
  });

  it('reads the central directory from the end of the file; datapackage.json lists every member with its sha256', async () => {
    const bytes = fixtureBytes('crawl.wacz');
    const entries = await readZipDirectory(bytesSource('crawl.wacz', bytes));
    const whole = unzipSync(bytes);
    expect(entries.map((e) => e.name).sort()).toEqual(Object.keys(whole).sort());
    for (const e of entries) expect(e.size).toBe(whole[e.name].length);
    const pkg = JSON.parse(new TextDecoder().decode(whole['datapackage.json'])) as {
      resources: { path: string; hash: string; bytes: number }[];
    };
    const { createHash } = await import('node:crypto');
    for (const r of pkg.resources) {
      expect(whole[r.path].length).toBe(r.bytes);
      expect(r.hash).toBe('sha256:' + createHash('sha256').update(whole[r.path]).digest('hex'));
    }
  });

  it('is ONE dataset of all its WARCs, the same pages as each WARC read on its own', async () => {
    const bytes = fixtureBytes('crawl.wacz');
    const { pages, summary, formats } = await readCrawl([bytesSource('crawl.wacz', bytes, 7)]);
    expect(formats).toEqual(['warc']); // the dataset is created once
    expect(summary.pages).toBe(c.pages);
    expect(summary.sources!.map((s) => s.name)).toEqual(c.sources);
    expect(summary.sources!.map((s) => s.format)).toEqual(['warc', 'warc']);
    const whole = unzipSync(bytes);
    const each: IngestedPage[] = [];
    for (const name of ['archive/data.warc.gz', 'archive/data-2.warc'])
      each.push(...(await ingestBytes(whole[name], name)).pages);
    expect(pages.map((p) => [p.page.url, p.page.title, p.page.offset, p.page.fingerprint])).toEqual(
      each.map((p) => [p.page.url, p.page.title, p.page.offset, p.page.fingerprint]),
    );
    const titles = expectedTitles['crawl.wacz'];
    for (const [url, title] of Object.entries(titles))
      expect(pages.find((p) => p.page.url === url)?.page.title).toBe(title);
    // Each page keeps its source; seq ranges of the sources are disjoint.
    expect(pages.map((p) => p.page.source)).toEqual(
      each.map((_, i) => (i < summary.sources![0].pages ? 0 : 1)),
    );
    for (const p of pages) expect(Math.floor(p.page.seq / SOURCE_SEQ_STRIDE)).toBe(p.page.source);
  });

  it('marks the pages its pages.jsonl lists and counts those never captured', async () => {
    const { pages, summary } = await readCrawl([bytesSource('crawl.wacz', fixtureBytes('crawl.wacz'))]);
    expect(summary.pageList).toEqual({ listed: c.listed, found: c.listed_found });
    const listed = pages.filter((p) => p.page.listed);
    expect(listed).toHaveLength(c.html_pages);
    expect(listed.every((p) => p.page.mime === 'text/html')).toBe(true);
    expect(pages.find((p) => p.page.url.endsWith('/style.css'))!.page.listed).toBeUndefined();
  });

  it('never reads the whole file at once: the directory and headers by small slices, members as streams', async () => {
    // A WACZ larger than the tail the directory is looked for in (64 KiB + the end records).
    const warc = fixtureBytes('tiny.warc.gz');
    const copies = Math.ceil((300 << 10) / warc.length);
    const big = new Uint8Array(warc.length * copies);
    for (let k = 0; k < copies; k++) big.set(warc, k * warc.length);
    const bytes = zipSync({
      'datapackage.json': new TextEncoder().encode('{"profile":"data-package","wacz_version":"1.1.1"}'),
      'archive/big.warc.gz': [big, { level: 0 }],
    });
    const { s, reads, streamed } = watched('big.wacz', bytes, 4096);
    const { summary } = await readCrawl([s]);
    const once = (await ingestBytes(warc, 'tiny.warc.gz')).summary.pages;
    expect(summary.pages).toBe(once * copies);
    for (const [a, b] of reads) expect(b - a).toBeLessThan(70 << 10);
    // The WARC member streamed once, as a whole range; the only other stream is datapackage.json.
    expect(streamed.map(([a, b]) => b - a).sort((x, y) => y - x)).toEqual([big.length, expect.any(Number)]);
    expect(streamed.filter(([a, b]) => b - a !== big.length).every(([a, b]) => b - a < 1024)).toBe(true);
  });

  it('reports progress over the whole file', async () => {
    const bytes = fixtureBytes('crawl.wacz');
    const seen: IngestProgress[] = [];
    await readCrawl([bytesSource('crawl.wacz', bytes)], (p) => seen.push(p));
    expect(seen.length).toBeGreaterThan(0);
    for (const p of seen) {
      expect(p.totalBytes).toBe(bytes.length);
      expect(p.bytesRead).toBeLessThanOrEqual(bytes.length);
      expect(p.files).toBe(c.warcs);
    }
    expect(seen.at(-1)!.fileIndex).toBe(c.warcs - 1);
  });

  it('a ZIP that is not a WACZ is not a crawl', async () => {
    const zip = fixtureBytes('not-wacz.zip');
    await expect(readCrawl([bytesSource('not-wacz.zip', zip)])).rejects.toThrow(
      /ZIP archive that is not a WACZ/,
    );
  });

  it('pages.jsonl: the json-pages-1.0 header is not a page; lines that do not parse are counted', () => {
    const text = [
      '{"format":"json-pages-1.0","id":"pages","title":"All Pages"}',
      '{"id":"1","url":"https://a.test/","ts":"2024-01-01T00:00:00Z","title":"A"}',
      '{"url":"https://a.test/b"}',
      'not json',
      '{"title":"no url"}',
    ].join('\n');
    expect(parsePagesJsonl(text)).toEqual({
      pages: [
        { url: 'https://a.test/', ts: '2024-01-01T00:00:00Z', title: 'A' },
        { url: 'https://a.test/b', ts: '', title: '' },
      ],
      bad: 2,
    });
  });
});

describe('many files, one crawl', () => {
  const src = (name: string) => bytesSource(name, fixtureBytes(name), 1000);

  it('reads files one after another into one summary: pages add up, each page keeps its file', async () => {
    const names = ['tiny.warc.gz', 'wget-angle.warc.gz', 'crawl.log'];
    const alone: Awaited<ReturnType<typeof ingestBytes>>[] = [];
    for (const n of names) alone.push(await ingestBytes(fixtureBytes(n), n));
    const { pages, summary, formats } = await readCrawl(names.map(src));
    expect(formats).toEqual(['warc']);
    expect(summary.pages).toBe(alone.reduce((a, r) => a + r.summary.pages, 0));
    expect(pages).toHaveLength(summary.pages);
    expect(summary.sources!.map((s) => [s.name, s.pages])).toEqual(
      names.map((n, i) => [n, alone[i].summary.pages]),
    );
    expect(summary.bytes).toBe(names.reduce((a, n) => a + fixtureBytes(n).length, 0));
    expect(new Set(pages.map((p) => p.page.seq)).size).toBe(pages.length);
    for (let i = 0; i < names.length; i++) {
      const mine = pages.filter((p) => p.page.source === i);
      expect(mine.map((p) => [p.page.url, p.page.offset])).toEqual(
        alone[i].pages.map((p) => [p.page.url, p.page.offset]),
      );
    }
    expect(summary.fileName).toBe('3 files');
  });

  it('a file that is not a crawl is skipped and listed, not fatal', async () => {
    const { summary } = await readCrawl([src('junk.bin'), src('tiny.warc'), src('image.png')]);
    expect(summary.pages).toBe((await ingestBytes(fixtureBytes('tiny.warc'), 'tiny.warc')).summary.pages);
    expect(summary.error).toBeNull();
    const skipped = summary.sources!.filter((s) => s.format === null);
    expect(skipped.map((s) => s.name)).toEqual(['junk.bin', 'image.png']);
    expect(skipped[1].error!.message).toMatch(/image\.png: this is a PNG image/);
  });

  it('a fault in one file keeps what was read and goes on to the next; the fault names its file', async () => {
    const { summary } = await readCrawl([src('truncated.warc.gz'), src('tiny.warc')]);
    expect(summary.error!.fileName).toBe('truncated.warc.gz');
    expect(summary.sources![1].pages).toBeGreaterThan(0);
    expect(summary.sources![1].error).toBeNull();
  });

  it('when no file is a crawl there is no dataset', async () => {
    let created = 0;
    const run = ingestCrawl(
      [src('junk.bin'), src('image.png')],
      { onFormat: () => void created++ },
      async () => {},
    );
    await expect(run).rejects.toThrow(IngestError);
    await expect(run).rejects.toThrow(/none is a crawl file: junk\.bin.*; image\.png/);
    expect(created).toBe(0);
  });
});

import { parquetWriteBuffer } from 'hyparquet-writer';
import { describe, expect, it } from 'vitest';
import { IngestError } from '../../../src/core/ingest/errors';
import { documentColumns } from '../../../src/core/ingest/parquet';
import { bytesSource } from '../../../src/core/ingest/wacz';
import type { IngestProgress } from '../../../src/core/types';
import { seededRandom } from '../../../src/core/random';
import { fixtureBytes, watchedSource, ingestFiles } from '../helpers';

const read = ingestFiles;

describe('Parquet documents', () => {
  it('docs.parquet: every row a page, in row order, across its three row groups', async () => {
    const { s, reads, streamed } = watchedSource('docs.parquet', fixtureBytes('docs.parquet'));
    const progress: IngestProgress[] = [];
    const { pages, summary, formats } = await read([s], (p) => progress.push(p));
    expect(formats).toEqual(['parquet']);
    expect(summary.format).toBe('parquet');
    expect(summary.error).toBeNull();
    expect(pages.map((p) => p.page.url)).toEqual([
      'http://docs.test/news/flood',
      'http://docs.test/news/flood?utm_source=feed',
      'http://docs.test/print/news/flood',
      'http://docs.test/recettes/tarte',
      'http://docs.test/gone',
      'http://docs.test/about',
      'http://docs.test/contact',
    ]);
    expect(pages[0].content.text).toBe(
      'The river rose overnight after three days of rain.\nResidents of the lower town moved their cars to the hill road.',
    );
    expect(pages[0].page.fingerprint).toBe(pages[1].page.fingerprint);
    expect(pages[2].page.fingerprint).not.toBe(pages[0].page.fingerprint);
    expect(pages[3].content.text).toContain('Éplucher les pommes');
    expect(pages.map((p) => p.page.status)).toEqual([200, 200, 200, 200, 404, 200, 200]);
    expect(pages[4].page.fetchedAt).toBe('2024-01-15T10:00:20Z');
    expect(pages.every((p) => p.page.recordType === 'parquet row')).toBe(true);
    expect(summary.recordsByType).toEqual({ 'parquet row': 7 });
    // Read by ranges, never streamed; progress in the file's own bytes.
    expect(reads.length).toBeGreaterThan(1);
    expect(streamed).toEqual([]);
    expect(summary.bytes).toBeLessThanOrEqual(fixtureBytes('docs.parquet').length);
    expect(progress.at(-1)!.bytesRead).toBeLessThanOrEqual(progress.at(-1)!.totalBytes);
  });

  it('a large table is read a row group at a time, never whole', async () => {
    const rnd = seededRandom(7);
    const n = 3000;
    // Text that does not compress away: ~1 KB a row, 3 MB in 6 row groups.
    const texts = Array.from({ length: n }, () =>
      Array.from({ length: 150 }, () => Math.floor(rnd() * 1e6).toString(36)).join(' '),
    );
    const bytes = new Uint8Array(
      parquetWriteBuffer({
        columnData: [
          { name: 'url', data: texts.map((_, i) => `http://big.test/${i}`), type: 'STRING' },
          { name: 'text', data: texts, type: 'STRING' },
        ],
        rowGroupSize: 500,
      }),
    );
    const { s, reads } = watchedSource('big.parquet', bytes);
    const { pages } = await read([s]);
    expect(pages).toHaveLength(n);
    const largest = Math.max(...reads.map(([a, b]) => b - a));
    expect(largest, `${bytes.length} bytes, largest read ${largest}`).toBeLessThan(bytes.length / 3);
  });

  it('docs-html-id.parquet: an id column makes urn:doc: URLs; HTML is extracted; gzip pages', async () => {
    const { pages, summary } = await read([
      bytesSource('docs-html-id.parquet', fixtureBytes('docs-html-id.parquet')),
    ]);
    expect(summary.format).toBe('parquet');
    expect(pages.map((p) => p.page.url)).toEqual(Array.from({ length: 7 }, (_, i) => `urn:doc:${1000 + i}`));
    expect(pages[0].content.text).toContain('The river rose overnight');
    expect(pages[0].page.title).toBe('Doc');
  });

  it('a table that is not documents is refused, naming the columns it has', async () => {
    const err = await read([bytesSource('not-docs.parquet', fixtureBytes('not-docs.parquet'))]).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(IngestError);
    expect((err as Error).message).toBe(
      'not-docs.parquet: a Parquet table that is not documents: no text column (text, content, raw_content, html): its columns are "url", "cluster"',
    );
  });

  it('among other files, a table that is not documents is skipped and listed; the documents are read', async () => {
    const { pages, summary } = await read([
      bytesSource('not-docs.parquet', fixtureBytes('not-docs.parquet')),
      bytesSource('docs.parquet', fixtureBytes('docs.parquet')),
    ]);
    expect(pages).toHaveLength(7);
    expect(summary.sources?.map((x) => [x.name, x.pages, x.error ? 'skipped' : 'read'])).toEqual([
      ['not-docs.parquet', 0, 'skipped'],
      ['docs.parquet', 7, 'read'],
    ]);
  });

  it('a row without a URL stops the read at its row, the rows before it kept', async () => {
    const bytes = parquetWriteBuffer({
      columnData: [
        {
          name: 'url',
          data: ['http://a.test/1', 'http://a.test/2', null, 'http://a.test/4'],
          type: 'STRING',
        },
        { name: 'text', data: ['one', 'two', 'three', 'four'], type: 'STRING' },
      ],
      rowGroupSize: 2,
    });
    const { pages, summary } = await read([bytesSource('gap.parquet', new Uint8Array(bytes))]);
    expect(pages.map((p) => p.page.url)).toEqual(['http://a.test/1', 'http://a.test/2']);
    expect(summary.error?.message).toBe('gap.parquet at row 3: a row without a "url" string');
  });

  const seed = Number(process.env.PARQUET_SEED ?? Math.floor(Math.random() * 1e9));
  it(`random tables: every row read once, in order, whatever the row groups (seed ${seed}; PARQUET_SEED=… to replay)`, async () => {
    const rnd = seededRandom(seed);
    for (let t = 0; t < 20; t++) {
      const n = 1 + Math.floor(rnd() * 300);
      const texts = Array.from(
        { length: n },
        (_, i) => `document ${i} ${'word '.repeat(Math.floor(rnd() * 20))}é`,
      );
      const bytes = parquetWriteBuffer({
        columnData: [
          { name: 'Content', data: texts, type: 'STRING' },
          { name: 'URL', data: texts.map((_, i) => `http://r${t}.test/${i}`), type: 'STRING' },
        ],
        rowGroupSize: 1 + Math.floor(rnd() * 50),
      });
      const { pages } = await read([bytesSource(`r${t}.parquet`, new Uint8Array(bytes))]);
      const where = `seed ${seed}, table ${t}`;
      expect(
        pages.map((p) => p.page.url),
        where,
      ).toEqual(texts.map((_, i) => `http://r${t}.test/${i}`));
      expect(
        pages.map((p) => p.content.text),
        where,
      ).toEqual(texts.map((x) => x.trim()));
    }
  });

  it('a table whose columns have other names says them, and is read by the columns the analyst chooses', async () => {
    const bytes = new Uint8Array(
      parquetWriteBuffer({
        columnData: [
          { name: 'link', data: ['http://o.test/1', 'http://o.test/2'], type: 'STRING' },
          { name: 'body', data: ['<p>first page</p>', '<p>second page</p>'], type: 'STRING' },
        ],
      }),
    );
    const err = await read([bytesSource('odd.parquet', bytes)]).catch((e) => e);
    expect(err).toBeInstanceOf(IngestError);
    expect((err as IngestError).toInfo().columns).toEqual(['link', 'body']);
    const { pages } = await ingestFiles([bytesSource('odd.parquet', bytes)], undefined, {
      url: 'link',
      body: 'body',
      kind: 'html',
    });
    expect(pages.map((p) => [p.page.url, p.content.text])).toEqual([
      ['http://o.test/1', 'first page'],
      ['http://o.test/2', 'second page'],
    ]);
    const wrong = await ingestFiles([bytesSource('odd.parquet', bytes)], undefined, {
      url: 'href',
      body: 'body',
      kind: 'text',
    }).catch((e) => e);
    expect((wrong as Error).message).toBe(
      'odd.parquet: the chosen column "href" is not in the table: its columns are "link", "body"',
    );
  });

  it('finds its columns by name, any case, preferring a URL to an id and text to HTML', () => {
    expect(documentColumns(['id', 'URL', 'html', 'Text', 'status_code', 'crawl_date'])).toEqual({
      url: 'URL',
      urlFromId: false,
      body: 'Text',
      kind: 'text',
      status: 'status_code',
      fetchedAt: 'crawl_date',
    });
    expect(documentColumns(['doc_id', 'html'])).toMatchObject({
      url: 'doc_id',
      urlFromId: true,
      kind: 'html',
    });
    expect(documentColumns(['text'])).toEqual({
      missing: 'no URL column (url, uri, target_uri) nor id column: its columns are "text"',
    });
  });
});

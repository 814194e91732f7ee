import { gzipSync } from 'node:zlib';
import { parquetWriteBuffer } from 'hyparquet-writer';
import type { Fixture } from './fixture-builder.ts';

/**
 * Documents as corpus pipelines keep them (FineWeb-style, datatrove, text-dedup): Parquet tables of one
 * row a document, written with hyparquet-writer in several row groups, so a reader that streams row
 * groups (src/core/ingest/parquet.ts) crosses their boundaries.
 */
const T = 'http://docs.test';
const story =
  'The river rose overnight after three days of rain.\nResidents of the lower town moved their cars to the hill road.';
const DOCS: Array<[string, string, number, string]> = [
  [`${T}/news/flood`, story, 200, '2024-01-15T10:00:00Z'],
  [`${T}/news/flood?utm_source=feed`, story, 200, '2024-01-15T10:00:05Z'],
  [`${T}/print/news/flood`, story.replace('three days', 'four days'), 200, '2024-01-15T10:00:10Z'],
  [
    `${T}/recettes/tarte`,
    'Tarte aux pommes.\nÉplucher les pommes, cuire 35 minutes à 180 °C.',
    200,
    '2024-01-15T10:00:15Z',
  ],
  [`${T}/gone`, 'Not found.', 404, '2024-01-15T10:00:20Z'],
  [`${T}/about`, 'About this site: a test of documents kept in Parquet.', 200, '2024-01-15T10:00:25Z'],
  [`${T}/contact`, 'Write to the editors at the address on the about page.', 200, '2024-01-15T10:00:30Z'],
];

function buffer(ab: ArrayBuffer): Buffer {
  return Buffer.from(new Uint8Array(ab));
}

export function parquetDocs(): Fixture[] {
  const urls = DOCS.map(([u]) => u);
  const counts = { rows: DOCS.length, rowGroups: 3, pages: DOCS.length };
  const gzip = { GZIP: (b: Uint8Array) => new Uint8Array(gzipSync(b, { level: 9 })) };
  return [
    {
      name: 'docs.parquet',
      data: buffer(
        parquetWriteBuffer({
          columnData: [
            { name: 'url', data: urls, type: 'STRING' },
            { name: 'text', data: DOCS.map(([, t]) => t), type: 'STRING' },
            { name: 'status', data: DOCS.map(([, , s]) => BigInt(s)), type: 'INT64' },
            { name: 'date', data: DOCS.map(([, , , d]) => d), type: 'STRING' },
          ],
          rowGroupSize: 3,
        }),
      ),
      about:
        'A table of documents (`url`, `text`, `status` as INT64, `date`), snappy, three row groups of 3, 3 and 1 rows.',
      expect: [
        `${DOCS.length} pages in row order: ${urls.join(', ')}`,
        'the first two have the same text (one fingerprint); the third changes one word; `/gone` has status 404',
        'fetch times from `date`',
      ],
      counts,
    },
    {
      name: 'docs-html-id.parquet',
      data: buffer(
        parquetWriteBuffer({
          columnData: [
            { name: 'ID', data: DOCS.map((_, i) => BigInt(1000 + i)), type: 'INT64' },
            {
              name: 'html',
              data: DOCS.map(
                ([, t]) => `<html><head><title>Doc</title></head><body><p>${t}</p></body></html>`,
              ),
              type: 'STRING',
            },
          ],
          rowGroupSize: 3,
          codec: 'GZIP',
          compressors: gzip,
        }),
      ),
      about:
        'The same documents by an `ID` column (no URL) with their `html`, gzip-compressed pages, three row groups.',
      expect: [
        `${DOCS.length} pages, URLs urn:doc:1000 … urn:doc:${1000 + DOCS.length - 1}, text extracted from the HTML`,
      ],
      counts,
    },
    {
      name: 'not-docs.parquet',
      data: buffer(
        parquetWriteBuffer({
          columnData: [
            { name: 'url', data: urls, type: 'STRING' },
            { name: 'cluster', data: DOCS.map((_, i) => BigInt(i % 2)), type: 'INT64' },
          ],
        }),
      ),
      about: 'A Parquet table with URLs but no text column (a clusters table, not documents).',
      expect: [
        'rejected: "no text column (text, content, raw_content, html): its columns are "url", "cluster""',
      ],
      counts: { rejected: true },
    },
  ];
}

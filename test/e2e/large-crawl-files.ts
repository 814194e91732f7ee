/**
 * The embedded sample as a large crawl is delivered: its WARC.gz cut in two files at a record's gzip
 * member, a CDXJ index of both (pywb's fields: url, mime, status, digest, length, offset, filename),
 * and the same as a WACZ (the two WARCs STORED under archive/, indexes/index.cdxj). Made at run time
 * in a temporary folder, with the core reading the sample for the records' places.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { fileSource } from '../../src/cli/file-source';
import { nodeNatives } from '../../src/cli/natives';
import { recordLengths } from '../../src/core/clusters/dedup-warc';
import { timestamp14 } from '../../src/core/clusters/cdxj';
import { ingestCrawl } from '../../src/core/ingest/many-files';
import type { PageRecord } from '../../src/core/types';
import { surt } from '../../src/core/url/surt';
import { projectFile } from './harness';

export interface LargeCrawlFiles {
  warcs: [string, string];
  index: string;
  /** The same index as a CDX (11 fields). */
  cdx: string;
  wacz: string;
  /** HTML response pages the index lists. */
  indexedPages: number;
}

export async function largeCrawlFiles(): Promise<LargeCrawlFiles> {
  const sample = projectFile('sample/sample.warc.gz');
  const src = await fileSource(sample);
  const pages: PageRecord[] = [];
  await ingestCrawl([src], { natives: nodeNatives }, async (batch) => {
    for (const p of batch) pages.push(p.page);
  });
  const lengths = await recordLengths(
    src,
    pages.map((p) => p.offset),
  );
  await src.close();
  const bytes = readFileSync(sample);
  const html = pages.filter((p) => p.recordType === 'response' && /html/.test(p.mime));
  const cut = html[html.length >> 1].offset;
  const dir = mkdtempSync(join(tmpdir(), 'dw-large-'));
  const names = ['crawl-part-1.warc.gz', 'crawl-part-2.warc.gz'] as const;
  const warcs = names.map((n) => join(dir, n)) as [string, string];
  writeFileSync(warcs[0], bytes.subarray(0, cut));
  writeFileSync(warcs[1], bytes.subarray(cut));
  const lines = pages
    .filter((p) => lengths.has(p.offset))
    .map((p) => {
      const second = p.offset >= cut;
      const fields = {
        url: p.url,
        mime: p.recordType === 'revisit' ? 'warc/revisit' : p.mime || 'unk',
        status: String(p.status),
        digest: p.digest.replace(/^sha1:/, ''),
        length: String(lengths.get(p.offset)),
        offset: String(second ? p.offset - cut : p.offset),
        filename: names[second ? 1 : 0],
      };
      let key = p.url;
      try {
        key = surt(p.url);
      } catch {
        /* not a web URL: its URL is the key */
      }
      return `${key} ${timestamp14(p.fetchedAt) || '-'} ${JSON.stringify(fields)}`;
    })
    .sort();
  const index = join(dir, 'crawl.cdxj');
  writeFileSync(index, lines.join('\n') + '\n');
  // The same captures as a CDX of wget's and cdx-indexer's 11 fields (N b a m s k r M S V g).
  const cdx = join(dir, 'crawl.cdx');
  writeFileSync(
    cdx,
    ' CDX N b a m s k r M S V g\n' +
      lines
        .map((l) => {
          const o = JSON.parse(l.slice(l.indexOf('{'))) as Record<string, string>;
          const [key, time] = l.split(' ');
          return [
            key,
            time,
            o.url,
            o.mime,
            o.status || '-',
            o.digest || '-',
            '-',
            '-',
            o.length,
            o.offset,
            o.filename,
          ].join(' ');
        })
        .join('\n') +
      '\n',
  );
  writeFileSync(join(dir, 'notes.txt'), 'not a crawl, not an index\n');
  const wacz = join(dir, 'crawl.wacz');
  writeFileSync(
    wacz,
    zipSync({
      'archive/crawl-part-1.warc.gz': [new Uint8Array(readFileSync(warcs[0])), { level: 0 }],
      'archive/crawl-part-2.warc.gz': [new Uint8Array(readFileSync(warcs[1])), { level: 0 }],
      'indexes/index.cdxj': [new Uint8Array(readFileSync(index)), { level: 6 }],
      'datapackage.json': [
        new TextEncoder().encode(JSON.stringify({ profile: 'data-package', wacz_version: '1.1.1' })),
        { level: 6 },
      ],
    }),
  );
  return { warcs, index, cdx, wacz, indexedPages: html.length };
}

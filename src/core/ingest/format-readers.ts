import type { FormatId } from '../types';
import { createAccessLogReader } from './access-log';
import { createArcReader } from './arc-pages';
import { createCdxReader } from './cdx';
import { createCrawlLogReader } from './crawl-log';
import { createCsvReader } from './csv';
import { createJsonlReader } from './jsonl';
import type { FormatReader, ReaderContext } from './reader';
import { createUrlListReader } from './url-list';
import { createWarcReader } from './warc-pages';

/** The reader of a format (`compressed`: its bytes come from gzip members or zstd frames). */
export function createReader(format: FormatId, ctx: ReaderContext, compressed: boolean): FormatReader {
  switch (format) {
    case 'warc':
      return createWarcReader(ctx, compressed);
    case 'arc':
      return createArcReader(ctx, compressed);
    case 'crawl-log':
      return createCrawlLogReader(ctx);
    case 'access-log':
      return createAccessLogReader(ctx);
    case 'cdx':
      return createCdxReader(ctx);
    case 'jsonl':
      return createJsonlReader(ctx);
    case 'csv':
      return createCsvReader(ctx, ',');
    case 'tsv':
      return createCsvReader(ctx, '\t');
    case 'url-list':
      return createUrlListReader(ctx);
    case 'parquet':
      return createJsonlReader(ctx, { record: 'parquet row', line: 'row' });
  }
}

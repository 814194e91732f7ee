import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { headerValue } from '../../../src/core/ingest/bytes';
import { MultiGunzip } from '../../../src/core/codecs/gzip';
import { parseHttpBlock } from '../../../src/core/ingest/http';
import { WarcParser } from '../../../src/core/ingest/warc';
import { targetUri } from '../../../src/core/ingest/warc-record';
import { decodeText } from '../../../src/core/text/charset';

const ROOT = join(import.meta.dirname, '../../..');

/** HTML pages of the sample crawl (sample/sample.warc.gz), decoded as ingest decodes them. */
export async function samplePages(): Promise<{ url: string; html: string }[]> {
  const bytes = readFileSync(join(ROOT, 'sample/sample.warc.gz'));
  const out: { url: string; html: string }[] = [];
  const parser = new WarcParser((r) => {
    if (r.type !== 'response' || !r.block) return;
    const http = parseHttpBlock(r.block);
    const ct = headerValue(http.headers, 'Content-Type') ?? '';
    if (!ct.includes('html')) return;
    out.push({ url: targetUri(r.headers), html: decodeText(http.body, ct, true).text });
  }, true);
  await new MultiGunzip((d, o) => parser.push(d, o)).push(bytes, true);
  parser.end();
  return out;
}

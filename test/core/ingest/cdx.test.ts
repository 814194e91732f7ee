import { describe, expect, it } from 'vitest';
import { ingest } from '../../../src/core/ingest/pipeline';
import type { IngestedPage } from '../../../src/core/types';

async function read(text: string, name: string) {
  const bytes = new TextEncoder().encode(text);
  const pages: IngestedPage[] = [];
  const summary = await ingest(
    (async function* () {
      yield bytes;
    })(),
    { fileName: name, totalBytes: bytes.length },
    async (b) => void pages.push(...b),
  );
  return { pages: pages.map((p) => p.page), summary };
}

describe('CDX and CDXJ indexes', () => {
  it('reads a CDXJ index (pywb) as a URL list with statuses, digests and sizes', async () => {
    const { pages, summary } = await read(
      'org,example)/ 20140126200624 {"url": "http://www.example.org/", "mime": "text/html", "status": "200", "digest": "OSSAPWJ23L56IYVRW3GFEAR4MCJMGPTB", "length": "2258", "offset": "334", "filename": "x.warc.gz"}\n' +
        'org,example)/a 20140126200912 {"url": "http://www.example.org/a", "mime": "warc/revisit", "digest": "LNMEDYOENSOEI5VPADCKL3CB6N3GWXPR", "length": "546"}\n',
      'x.cdxj',
    );
    expect(summary.format).toBe('cdx');
    expect(
      pages.map((p) => [p.url, p.status, p.mime, p.digest, p.sizeMax, p.recordType, p.fetchedAt]),
    ).toEqual([
      [
        'http://www.example.org/',
        200,
        'text/html',
        'sha1:OSSAPWJ23L56IYVRW3GFEAR4MCJMGPTB',
        2258,
        'cdx line',
        '2014-01-26T20:06:24Z',
      ],
      [
        'http://www.example.org/a',
        0,
        '',
        'sha1:LNMEDYOENSOEI5VPADCKL3CB6N3GWXPR',
        546,
        'revisit',
        '2014-01-26T20:09:12Z',
      ],
    ]);
  });

  it('reads a classic CDX with the header naming its fields (wget --warc-cdx)', async () => {
    const { pages, summary } = await read(
      ' CDX a b a m s k r M V g u\n' +
        'http://h.test/ 20261122154254 http://h.test/ text/html 200 ID3SW4W4WY2WOMD6SZCVOIKS67U6ZBEC - - 917 crawl.warc.gz <urn:uuid:1>\n' +
        'http://h.test/x 20261122154255 http://h.test/x text/plain 404 MWMQEVVW5PQBJHMO37FOG4TUW2XT4QVO - - 2182 crawl.warc.gz <urn:uuid:2>\n',
      'crawl.cdx',
    );
    expect(summary.format).toBe('cdx');
    expect(pages.map((p) => [p.url, p.status, p.mime, p.digest])).toEqual([
      ['http://h.test/', 200, 'text/html', 'sha1:ID3SW4W4WY2WOMD6SZCVOIKS67U6ZBEC'],
      ['http://h.test/x', 404, 'text/plain', 'sha1:MWMQEVVW5PQBJHMO37FOG4TUW2XT4QVO'],
    ]);
  });

  it('stops at a CDXJ line whose JSON is broken, naming the line', async () => {
    const { summary } = await read(
      'a)/ 20140126200624 {"url": "http://a/"}\nb)/ 20140126200624 {"url": \n',
      'bad.cdxj',
    );
    expect(summary.error?.message).toMatch(/bad\.cdxj at line 2: CDXJ line whose JSON does not parse/);
  });
});

/**
 * The partner read (core/sample/partner-read.ts): records read by byte range at the places a crawl's
 * index gives, as a sample is read, against a whole read of the same files — on seeded random crawls
 * (a fresh seed each run, printed; PARTNER_SEED=… repeats one): two WARCs, gzip (a member a record) or
 * plain, responses among request and CSS records, lengths stated or not (wget's CDX states none).
 */
import { gzipSync } from 'node:zlib';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { dustRecordOf } from '../../../src/core/dust/from-page';
import type { DustRecord } from '../../../src/core/dust/types';
import { layerLine, UrlLayer } from '../../../src/core/dust/url-layer';
import { layerPartners, readRecordsAt } from '../../../src/core/sample/partner-read';
import { mergeRanges } from '../../../src/core/sample/sample-plan';
import { bytesSource } from '../../../src/core/ingest/wacz';
import { seededRandom, type Rng } from '../../../src/core/random';
import { concat, httpResponse, ingestFiles, warcRecord, watchedSource } from '../helpers';

const seed = Number(process.env.PARTNER_SEED ?? Math.floor(Math.random() * 1e9));

const WORDS = 'alpha beta gamma delta epsilon zeta theta iota kappa lambda omicron sigma tau'.split(' ');

interface Capture {
  url: string;
  file: number;
  offset: number;
  length: number;
  status: number;
  html: boolean;
}

/** Two WARCs of random records, and the captures an index of them lists (responses only). */
function crawl(rng: Rng) {
  const gz = rng() < 0.6;
  const captures: Capture[] = [];
  const files = [0, 1].map((f) => {
    const parts: Uint8Array[] = [];
    let at = 0;
    const n = 10 + Math.floor(rng() * 30);
    for (let k = 0; k < n; k++) {
      const url = `https://s${Math.floor(rng() * 4)}.example/d${f}/p${k}${rng() < 0.3 ? `?id=${k}` : ''}`;
      const css = rng() < 0.1;
      const status = rng() < 0.1 ? 404 : 200;
      const words = Array.from({ length: 30 + Math.floor(rng() * 60) }, () => WORDS[Math.floor(rng() * 13)]);
      const body = css
        ? 'body { color: red }'
        : `<html><head><title>${url}</title></head><body><p>${words.join(' ')}</p></body></html>`;
      const put = (r: Uint8Array) => {
        const b = gz ? new Uint8Array(gzipSync(r)) : r;
        parts.push(b);
        at += b.length;
      };
      if (rng() < 0.5)
        put(
          warcRecord(
            [
              ['WARC-Type', 'request'],
              ['WARC-Target-URI', url],
            ],
            'GET / HTTP/1.1\r\n\r\n',
          ),
        );
      const offset = at;
      put(
        warcRecord(
          [
            ['WARC-Type', 'response'],
            ['WARC-Target-URI', url],
            ['WARC-Date', '2024-01-15T10:00:00Z'],
            ['Content-Type', 'application/http; msgtype=response'],
          ],
          httpResponse(status, [['Content-Type', css ? 'text/css' : 'text/html; charset=utf-8']], body),
        ),
      );
      const length = at - offset;
      captures.push({ url: new URL(url).href, file: f, offset, length, status, html: !css });
    }
    return concat(...parts);
  });
  return { files, captures, names: gz ? ['a.warc.gz', 'b.warc.gz'] : ['a.warc', 'b.warc'] };
}

/** Every page of the files as a whole read gives it, by URL (the first capture of a URL). */
async function wholeRead(files: Uint8Array[], names: string[]): Promise<Map<string, DustRecord>> {
  const { pages } = await ingestFiles(files.map((b, i) => bytesSource(names[i], b)));
  const out = new Map<string, DustRecord>();
  for (const { page, content } of pages)
    if (!out.has(page.normUrl)) out.set(page.normUrl, dustRecordOf(page, content.text, content.headers));
  return out;
}

describe(`partners read by byte range (seed ${seed}; PARTNER_SEED=${seed} repeats it)`, () => {
  it('reads exactly the records asked for, as a whole read gives them, and only their ranges', async () => {
    for (let k = 0; k < 6; k++) {
      const s = seed + k;
      const rng = seededRandom(s);
      const { files, captures, names } = crawl(rng);
      const whole = await wholeRead(files, names);
      // The index as a sample's URL layer stores it: HTML captures with their places; lengths unknown
      // in half the runs (then up to the file's next capture, or its end).
      const unknown = rng() < 0.5;
      const layer = new UrlLayer();
      const html = captures.filter((c) => c.html);
      layer.add(
        html
          .map((c) =>
            layerLine({
              url: c.url,
              status: c.status,
              length: unknown ? -1 : c.length,
              digest: '',
              offset: c.offset,
              file: c.file,
            }),
          )
          .join('\n'),
      );
      const first = new Map<string, Capture>();
      for (const c of html) if (!first.has(c.url)) first.set(c.url, c);
      const wanted = [...first.keys()].filter(() => rng() < 0.4);
      const watched = files.map((b, i) => watchedSource(names[i], b, 1 << 10));
      const got = await layerPartners(
        layer,
        names,
        watched.map((w) => w.s),
      ).read(wanted);
      const label = `seed ${s} (${names[0]}, lengths ${unknown ? 'unknown' : 'stated'})`;
      expect(got.records.map((r) => r.url).sort(), label).toEqual(wanted.filter((u) => whole.get(u)).sort());
      for (const r of got.records) expect(r, `${label}: ${r.url}`).toEqual(whole.get(r.url));
      // Only the records' ranges were read: each file's ranges as the places give them, joined.
      const places = layer.placesOf(new Set(wanted));
      let bytes = 0;
      let ranges = 0;
      watched.forEach((w, f) => {
        const mine = [...places.values()]
          .filter((p) => p.file === f)
          .map((p): [number, number] => [p.offset, p.length > 0 ? p.offset + p.length : files[f].length]);
        const merged = mergeRanges(mine);
        ranges += merged.length;
        bytes += merged.reduce((a, [x, y]) => a + y - x, 0);
        const inside = (a: number, b: number) => merged.some(([x, y]) => a >= x && b <= y);
        for (const [a, b] of [...w.reads, ...w.streamed].filter(([a, b]) => b > a && a > 0))
          expect(inside(a, b), `${label}: file ${f} read [${a}, ${b}) outside its ranges`).toBe(true);
      });
      expect(got.bytes, label).toBe(bytes);
      expect(got.ranges, label).toBe(ranges);
      expect(got.notInFiles, label).toBe(0);
    }
  });

  it('reads a WACZ’s STORED WARCs as ranges of it; a record in a file not given is counted, not read', async () => {
    const rng = seededRandom(seed ^ 0x5bd1e995);
    const { files, captures, names } = crawl(rng);
    const whole = await wholeRead(files, names);
    const wacz = zipSync({
      [`archive/${names[0]}`]: [files[0], { level: 0 }],
      'datapackage.json': [new TextEncoder().encode('{"wacz_version":"1.1.1"}'), { level: 6 }],
    });
    const html = captures.filter((c) => c.html && c.status === 200);
    const got = await readRecordsAt(
      [bytesSource('crawl.wacz', wacz)],
      html.map((c) => ({ url: c.url, filename: names[c.file], offset: c.offset, length: c.length })),
    );
    const inFirst = [...new Set(html.filter((c) => c.file === 0).map((c) => c.url))];
    expect(got.records.map((r) => r.url).sort(), `seed ${seed}`).toEqual(inFirst.sort());
    for (const r of got.records) expect(r).toEqual(whole.get(r.url));
    expect(got.notInFiles, `seed ${seed}`).toBe(html.filter((c) => c.file === 1).length);
  });

  it('a layer stored before places were kept gives none', () => {
    const layer = new UrlLayer();
    layer.add('https://a.example/x\t200\t100\tABC\nhttps://a.example/y\t200\t120\t');
    expect(layer.hasPlaces).toBe(false);
    expect(layer.records.map((r) => r.url)).toEqual(['https://a.example/x', 'https://a.example/y']);
    expect(layer.placesOf(new Set(['https://a.example/x'])).size).toBe(0);
  });
});

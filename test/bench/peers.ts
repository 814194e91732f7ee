/**
 * `npm run bench:peers`: this project's core beside the field's own tools, on the same files in the
 * same run (each peer a pinned Python package, scripts/lib/peers-env.ts; test/bench/peers/peers.py):
 *
 * - reading a WARC's response records and their payloads: FastWARC and warcio against the core's WARC
 *   and HTTP parsers (WarcParser over MultiGunzip with node:zlib, as the CLI reads, and parseHttpBlock);
 * - HTML to text over the HTML payloads: Resiliparse's extract_plain_text against the core's extractor
 *   (extractHtml), each decoding the bytes first;
 * - MinHash (128 permutations) and LSH down to J ≥ 0.3 over the same shingle sets: datasketch's MinHash
 *   and MinHashLSH against the core's minhashSignature and lshCandidates (bandsForMinimum);
 * - and the core's whole ingest (records, HTTP, charset, extraction, digests) for scale.
 *
 * Files: docsite's crawl (../shared, when present) and the sample. Each row: this project's seconds,
 * the peer's, and the ratio (peer / ours: above 1, ours is faster).
 */
import { spawnSync } from 'node:child_process';
import {
  createReadStream,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { ensurePeersEnv } from '../../scripts/lib/peers-env';
import { nodeNatives } from '../../src/cli/natives';
import { extractHtml } from '../../src/core/html/extract';
import { headerValue } from '../../src/core/ingest/bytes';
import { isGzip, MultiGunzip } from '../../src/core/codecs/gzip';
import { parseHttpBlock } from '../../src/core/ingest/http';
import { ingest } from '../../src/core/ingest/pipeline';
import { WarcParser } from '../../src/core/ingest/warc';
import { targetUri } from '../../src/core/ingest/warc-record';
import { bandsForMinimum, lshCandidates } from '../../src/core/signatures/lsh';
import { minhashSignature } from '../../src/core/signatures/minhash';
import { shingleSet } from '../../src/core/signatures/shingles';
import { readCrawl } from './read-crawl';

const ROOT = resolve(import.meta.dirname, '../..');
const PEERS = join(import.meta.dirname, 'peers', 'peers.py');
const files = [
  join(ROOT, '../shared/datasets/docsite/crawl.warc.gz'),
  join(ROOT, 'sample/sample.warc.gz'),
].filter(existsSync);
const python = ensurePeersEnv((l) => console.log(l));

function peer(mode: string, ...args: string[]): Record<string, number> {
  const r = spawnSync(python, [PEERS, mode, ...args], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`${mode}: ${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<string, number>;
}

/** The response records' payloads, read by the core's parsers only; and their HTML, decoded. */
async function coreRead(data: Uint8Array): Promise<{
  seconds: number;
  records: number;
  bytes: number;
  html: [string, string][];
}> {
  const html: [string, Uint8Array, string][] = [];
  let records = 0;
  let bytes = 0;
  const t = performance.now();
  const parser = new WarcParser((r) => {
    if (r.type !== 'response' || !r.block) return;
    const http = parseHttpBlock(r.block);
    records++;
    bytes += http.body.length;
    const ct = headerValue(http.headers, 'Content-Type') ?? '';
    if (/html/i.test(ct)) html.push([targetUri(r.headers), http.body, ct]);
  }, isGzip(data));
  if (isGzip(data)) {
    // Node's zlib inflates, as the CLI's ingest has it (src/cli/natives.ts).
    const gz = new MultiGunzip((d, off) => parser.push(d, off), 0, nodeNatives.inflate);
    await gz.push(data, true);
  } else parser.push(data, 0);
  parser.end();
  const seconds = (performance.now() - t) / 1000;
  const decoded = html.map(([url, body, ct]): [string, string] => {
    const cs = /charset=([\w-]+)/i.exec(ct)?.[1] ?? 'utf-8';
    let d: TextDecoder;
    try {
      d = new TextDecoder(cs);
    } catch {
      d = new TextDecoder('utf-8');
    }
    return [url, d.decode(body)];
  });
  return { seconds, records, bytes, html: decoded };
}

const ratio = (ours: number, theirs: number) => `${(theirs / ours).toFixed(2)}×`;
const s = (x: number) => `${x.toFixed(2)} s`;

for (const file of files) {
  const data = new Uint8Array(readFileSync(file));
  console.log(`${basename(file)} (${(data.length / 1048576).toFixed(1)} MB)`);
  const ours = await coreRead(data);
  const fw = peer('fastwarc', file);
  const wi = peer('warcio', file);
  console.log(
    `  read responses + payloads: core ${s(ours.seconds)} (${ours.records} records, ${ours.bytes.toLocaleString('en-US')} bytes); FastWARC ${s(fw.seconds)} (${fw.records}) = ${ratio(ours.seconds, fw.seconds)} ours; warcio ${s(wi.seconds)} (${wi.records}) = ${ratio(ours.seconds, wi.seconds)} ours`,
  );
  let chars = 0;
  const t = performance.now();
  for (const [url, h] of ours.html) chars += extractHtml(h, url).text.length;
  const ex = (performance.now() - t) / 1000;
  const rp = peer('resiliparse', file);
  console.log(
    `  HTML to text: core ${s(ex)} (${ours.html.length} pages, ${chars.toLocaleString('en-US')} characters); Resiliparse ${s(rp.seconds)} (${rp.pages} pages, ${rp.chars.toLocaleString('en-US')} characters) = ${ratio(ex, rp.seconds)} ours`,
  );
  const t0 = performance.now();
  await ingest(
    createReadStream(file) as AsyncIterable<Uint8Array>,
    { fileName: basename(file), totalBytes: statSync(file).size, natives: nodeNatives },
    async () => {},
  );
  console.log(
    `  the core's whole ingest (records, HTTP, charsets, extraction, digests): ${s((performance.now() - t0) / 1000)}`,
  );
  const pages = (await readCrawl(file)).pages;
  const sets = pages.map((p) => shingleSet(p.text));
  const dir = mkdtempSync(join(tmpdir(), 'peers-'));
  try {
    const setsFile = join(dir, 'sets.jsonl');
    writeFileSync(setsFile, sets.map((x) => JSON.stringify([...x])).join('\n') + '\n');
    const P = 128;
    const t1 = performance.now();
    const sigs = new Uint32Array(sets.length * P);
    sets.forEach((x, i) => minhashSignature(x, { permutations: P, seed: 1 }, sigs, i * P));
    const sketch = (performance.now() - t1) / 1000;
    const { bands, rows } = bandsForMinimum(P, 0.3);
    const t2 = performance.now();
    const { pairs } = lshCandidates(sigs, sets.length, P, bands, rows);
    const lsh = (performance.now() - t2) / 1000;
    const ds = peer('datasketch', setsFile, '0.3');
    console.log(
      `  MinHash (128) of ${sets.length} shingle sets: core ${s(sketch)}; datasketch ${s(ds.sketchSeconds)} = ${ratio(sketch, ds.sketchSeconds)} ours. LSH from J ≥ 0.3: core ${s(lsh)} (${bands} × ${rows}, ${(pairs.length / 2).toLocaleString('en-US')} pairs); datasketch MinHashLSH ${s(ds.lshSeconds)} (${ds.pairs.toLocaleString('en-US')} pairs) = ${ratio(lsh, ds.lshSeconds)} ours`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

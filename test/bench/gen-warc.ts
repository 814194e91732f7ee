/**
 * Generates a large realistic WARC.gz for benchmarks (never committed): HTML pages from a seeded
 * vocabulary, request + response per page, one gzip member per record, like wget or Heritrix write.
 */
import { createReadStream, createWriteStream, existsSync, statSync } from 'node:fs';
import { basename } from 'node:path';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { seededRandom } from '../../src/core/random';

const SYL = 'ka lo mi ne ru sa ti vo pe da gu ri ho ze ma ni ko la be to fi su ra de no'.split(' ');

export async function generateWarcGz(
  path: string,
  targetBytes: number,
  seed = 7,
): Promise<{ pages: number }> {
  if (existsSync(path) && statSync(path).size >= targetBytes) {
    return { pages: -1 };
  }
  const rnd = seededRandom(seed);
  const words: string[] = [];
  for (let i = 0; i < 5000; i++) {
    const n = 1 + Math.floor(rnd() * 4);
    let w = '';
    for (let k = 0; k < n; k++) w += SYL[Math.floor(rnd() * SYL.length)];
    words.push(w);
  }
  // Zipf-like word choice, as in real text.
  const word = () => words[Math.floor(words.length * Math.pow(rnd(), 3))];
  const out = createWriteStream(path);
  let written = 0;
  let pages = 0;
  const write = (b: Buffer) =>
    new Promise<void>((ok) => {
      written += b.length;
      if (out.write(b)) ok();
      else out.once('drain', () => ok());
    });
  const record = (type: string, uri: string, block: Buffer, extra = '') => {
    const id = createHash('sha1').update(`${seed}:${pages}:${type}`).digest('hex');
    const head =
      `WARC/1.0\r\nWARC-Type: ${type}\r\nWARC-Target-URI: ${uri}\r\nWARC-Date: 2024-01-15T10:00:00Z\r\n` +
      `WARC-Record-ID: <urn:uuid:${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20, 32)}>\r\n` +
      `${extra}Content-Length: ${block.length}\r\n\r\n`;
    return gzipSync(Buffer.concat([Buffer.from(head), block, Buffer.from('\r\n\r\n')]), { level: 6 });
  };
  await write(record('warcinfo', '', Buffer.from('software: dedup-workbench bench generator\r\n')));
  while (written < targetBytes) {
    const host = `site${pages % 40}.example.test`;
    const url = `http://${host}/section${pages % 97}/page${pages}.html${pages % 5 === 0 ? '?sessionid=' + (pages % 13) : ''}`;
    const paras: string[] = [];
    const np = 5 + Math.floor(rnd() * 20);
    for (let p = 0; p < np; p++) {
      const nw = 20 + Math.floor(rnd() * 80);
      const ws: string[] = [];
      for (let k = 0; k < nw; k++) ws.push(word());
      paras.push(`<p>${ws.join(' ')}.</p>`);
    }
    const links = Array.from(
      { length: 12 },
      (_, k) =>
        `<li><a href="/section${(pages + k) % 97}/page${(pages * 7 + k) % 100000}.html">${word()}</a></li>`,
    ).join('');
    const html = `<!doctype html><html><head><meta charset="utf-8"><title>${word()} ${word()} ${pages}</title><style>body{font:14px sans-serif}</style><script>var x=${pages};</script></head><body><nav><ul>${links}</ul></nav><main><h1>${word()} ${word()}</h1>${paras.join('\n')}</main><footer>© example</footer></body></html>`;
    const body = Buffer.from(html);
    const http = Buffer.concat([
      Buffer.from(
        `HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\nContent-Length: ${body.length}\r\n\r\n`,
      ),
      body,
    ]);
    await write(
      record('request', url, Buffer.from(`GET ${new URL(url).pathname} HTTP/1.1\r\nHost: ${host}\r\n\r\n`)),
    );
    await write(record('response', url, http, 'Content-Type: application/http; msgtype=response\r\n'));
    pages++;
  }
  await new Promise<void>((ok) => out.end(() => ok()));
  return { pages };
}

/**
 * The WARC.gz at `warcPath` as a WACZ (as Browsertrix writes one: the WARC STORED under archive/, a
 * datapackage.json), streamed through fflate's Zip: never the whole WARC in memory.
 */
export async function generateWacz(warcPath: string, waczPath: string): Promise<void> {
  if (existsSync(waczPath) && statSync(waczPath).size > statSync(warcPath).size) return;
  const out = createWriteStream(waczPath);
  const pending: Promise<void>[] = [];
  let failed: Error | null = null;
  const zip = new Zip((err, chunk) => {
    if (err) failed = err;
    else if (!out.write(chunk)) pending.push(new Promise((ok) => out.once('drain', () => ok())));
  });
  const warc = new ZipPassThrough(`archive/${basename(warcPath)}`);
  zip.add(warc);
  for await (const chunk of createReadStream(warcPath, { highWaterMark: 1 << 20 })) {
    warc.push(chunk as Buffer);
    await Promise.all(pending.splice(0));
  }
  warc.push(new Uint8Array(0), true);
  const dp = new ZipDeflate('datapackage.json', { level: 6 });
  zip.add(dp);
  dp.push(
    new TextEncoder().encode(
      JSON.stringify({ profile: 'data-package', wacz_version: '1.1.1', title: 'generated bench crawl' }),
    ),
    true,
  );
  zip.end();
  await Promise.all(pending.splice(0));
  await new Promise<void>((ok) => out.end(() => ok()));
  if (failed) throw failed;
}

/**
 * A generated crawl for the kept-copy decisions (test/cli/decisions-engines.test.ts, and the figures of
 * docs/batch.md): pages of a documentation site linked from an index; a mirror host with a banner copy
 * of a third of them, another third redirecting from the mirror to the original; tracking aliases;
 * re-fetches a day later; and a page whose copies grew (original 130 words, mirror 150, a tracking alias
 * of the mirror 25 more: over a fifth of it the kept original lacks).
 */
import { httpResponse, isoDate, recordIdFactory, warcRecord } from './warc-writer';
import { seededRandom } from '../../src/core/random';

const WORDS =
  'archive crawl replica mirror harvest record capture payload digest header index shard cluster page text link host path query token shingle band bucket sketch signature anchor threshold policy canonical original redirect alias site section'.split(
    ' ',
  );

/** The crawl of `count` pages and their copies, as one WARC (uncompressed). */
export function decisionCrawl(seed: number, count = 36): Buffer {
  const rng = seededRandom(seed);
  const id = recordIdFactory(`engines-${seed}`);
  const words = (n: number) =>
    Array.from({ length: n }, () => WORDS[Math.floor(rng() * WORDS.length)]).join(' ');
  const origin = 'https://docs.example.test';
  const mirror = 'https://m.docs.example.test';
  const pages = Array.from({ length: count }, (_, i) => ({ path: `/guide/p${i}.html`, text: words(160) }));
  const records: Buffer[] = [];
  let t = 0;
  const html = (url: string, text: string, links: string[] = []) =>
    warcRecord({
      type: 'response',
      targetUri: url,
      date: isoDate('2024-05-01T10:00:00Z', t++),
      recordId: id(),
      block: httpResponse(
        200,
        [['Content-Type', 'text/html; charset=utf-8']],
        Buffer.from(
          `<!doctype html><html><head><title>${url}</title></head><body><p>${text}</p>${links
            .map((l) => `<a href="${l}">x</a>`)
            .join('')}</body></html>`,
        ),
      ),
    });
  const redirect = (url: string, to: string) =>
    warcRecord({
      type: 'response',
      targetUri: url,
      date: isoDate('2024-05-01T10:00:00Z', t++),
      recordId: id(),
      block: httpResponse(301, [['Location', to]], Buffer.alloc(0)),
    });
  records.push(
    html(
      `${origin}/`,
      words(80),
      pages.map((p) => `${origin}${p.path}`),
    ),
  );
  // The mirror is crawled first for some pages (its copy is the earlier capture).
  for (const [i, p] of pages.entries()) {
    if (i % 3 === 0) records.push(html(`${mirror}${p.path}`, `${p.text} mirrored copy banner ${words(6)}`));
    else if (i % 3 === 1) records.push(redirect(`${mirror}${p.path}`, `${origin}${p.path}`));
  }
  for (const p of pages) records.push(html(`${origin}${p.path}`, p.text, [`${origin}/`]));
  for (const [i, p] of pages.entries())
    if (i % 4 === 0) records.push(html(`${origin}${p.path}?utm_source=feed${i}`, p.text));
  // A page whose copies grew: the original (its canonical URL, kept) holds 130 words, its mirror copy 150
  // (the star's centre), a tracking alias of the mirror 25 more — over a fifth of which the kept copy
  // lacks. Each copy is similar to the next, so the mirror and tracking rules hold on them.
  const grown = words(150).split(' ');
  const more = words(25);
  records.push(html(`${origin}/guide/grown.html`, grown.slice(0, 130).join(' ')));
  records.push(html(`${mirror}/guide/grown.html`, grown.join(' ')));
  records.push(html(`${mirror}/guide/grown.html?utm_source=news`, `${grown.join(' ')} ${more}`));
  // Re-fetches of some pages, a day later (captures of one URL).
  t += 86_400;
  for (const [i, p] of pages.entries()) if (i % 5 === 0) records.push(html(`${origin}${p.path}`, p.text));
  return Buffer.concat(records);
}

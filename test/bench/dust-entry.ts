/**
 * What `npm run bench:dust` runs in Node and (bundled) in Chromium: DustBuster on generated URL lists
 * with realistic paths and parameters, and on records from real files.
 */
import { runDustBuster, type DustRecord } from '../../src/core/dust';
import { seededRandom } from '../../src/core/random';

const SECTIONS = ['news', 'sport', 'tech', 'docs', 'blog', 'forum', 'shop', 'help', 'about', 'archive'];
const WORDS =
  'alpha beta gamma delta kappa sigma omega river stone cloud field light metal paper glass'.split(' ');

/**
 * n unique URLs over 20 hosts: article paths, product pages with query parameters, and DUST aliases
 * (story?id=N / story_N, dir/ and dir/index.html, session and tracking parameters) on a share of them,
 * with sizes such that aliases overlap and different pages mostly do not.
 */
export function makeUrlList(n: number, seed = 5): DustRecord[] {
  const rnd = seededRandom(seed);
  const out: DustRecord[] = [];
  let k = 0;
  while (out.length < n) {
    const host = `www.site${k % 20}.test`;
    const size = 2000 + Math.floor(rnd() * 60000);
    const rec = (url: string, s = size): DustRecord => ({
      url,
      status: 200,
      sizeMin: s,
      sizeMax: s + Math.floor(rnd() * 30),
    });
    const section = SECTIONS[Math.floor(rnd() * SECTIONS.length)];
    const slug = `${WORDS[Math.floor(rnd() * WORDS.length)]}-${WORDS[Math.floor(rnd() * WORDS.length)]}-${k}`;
    const r = rnd();
    if (r < 0.15) {
      out.push(rec(`http://${host}/story?id=${k}`), rec(`http://${host}/story_${k}`));
    } else if (r < 0.25) {
      out.push(
        rec(`http://${host}/${section}/${slug}/`),
        rec(`http://${host}/${section}/${slug}/index.html`),
      );
    } else if (r < 0.35) {
      out.push(
        rec(`http://${host}/${section}/${slug}.html`),
        rec(`http://${host}/${section}/${slug}.html?sessionid=${1000 + Math.floor(rnd() * 5)}`),
      );
    } else if (r < 0.42) {
      out.push(
        rec(`http://${host}/${section}/${slug}.html?utm_source=feed`),
        rec(`http://${host}/${section}/${slug}.html`),
      );
    } else if (r < 0.6) {
      out.push(rec(`http://${host}/shop/item.php?id=${k}&color=${WORDS[k % 5]}&page=${1 + (k % 4)}`));
    } else {
      out.push(
        rec(
          `http://${host}/${section}/${new Date(1.7e12 + k * 8.64e7).toISOString().slice(0, 10).replace(/-/g, '/')}/${slug}.html`,
        ),
      );
    }
    k++;
  }
  return out.slice(0, n);
}

export function runOn(records: DustRecord[]): {
  ms: number;
  urls: number;
  detected: number;
  valid: number;
  likely: number;
} {
  const t = performance.now();
  const r = runDustBuster(records);
  return {
    ms: performance.now() - t,
    urls: r.list.urls,
    detected: r.metrics.detected,
    valid: r.metrics.valid,
    likely: r.metrics.likely,
  };
}

export function runGenerated(n: number) {
  return runOn(makeUrlList(n));
}

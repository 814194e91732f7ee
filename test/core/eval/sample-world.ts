/**
 * A generated crawl index for the sample design's tests and bench: sites of heavy-tailed sizes, each
 * with its own rates of exact copies (same payload digest) and near copies (another digest, the same
 * near group), some sites mirrored whole on another host, and a few error pages shared by many sites.
 * The truth is known by construction: `group` is each page's near-duplicate group.
 */
import { seededRandom } from '../../../src/core/random';
import { type DesignPage } from '../../../src/core/eval/design-columns';
import { duplicatesAmong } from '../../../src/core/eval/whole-crawl';

export interface WorldPage extends DesignPage {
  group: number;
}

export interface WorldOptions {
  sites?: number;
  maxSite?: number;
  mirrorShare?: number;
}

export function generateWorld(seed: number, o: WorldOptions = {}): WorldPage[] {
  const rnd = seededRandom(seed);
  const sites = o.sites ?? 300 + Math.floor(rnd() * 300);
  const maxSite = o.maxSite ?? 3000;
  const pages: WorldPage[] = [];
  let digest = 0;
  let group = 0;
  for (let s = 0; s < sites; s++) {
    const size = Math.min(maxSite, Math.floor(3 * (1 / (1 - rnd())) ** (1 / 1.25)));
    const exact = rnd() * 0.3;
    const near = rnd() * 0.3;
    const own: WorldPage[] = [];
    // Directories of ~40 pages; a copy is of a page in its own directory, or 1 in 10 of any page.
    const dirs = Math.ceil(size / 40);
    const dirOf: number[] = [];
    const pick = (dir: number): WorldPage => {
      if (rnd() < 0.1) return own[Math.floor(rnd() * own.length)];
      const same = own.filter((_, i) => dirOf[i] === dir);
      return same.length > 0 ? same[Math.floor(rnd() * same.length)] : own[Math.floor(rnd() * own.length)];
    };
    for (let k = 0; k < size; k++) {
      const r = rnd();
      const dir = Math.floor(rnd() * dirs);
      dirOf.push(dir);
      const url = `https://${rnd() < 0.3 ? 'www.' : ''}site-${s}.example/d${dir}/p${k}`;
      const bytes = 2000 + Math.floor(rnd() * 30000);
      let p: WorldPage;
      if (rnd() < 0.005) p = { url, bytes, digest: `err-${Math.floor(rnd() * 3)}`, group: group++ };
      else if (k > 0 && r < exact) {
        const from = pick(dir);
        p = { url, bytes, digest: from.digest, group: from.group };
      } else if (k > 0 && r < exact + near) {
        const from = pick(dir);
        p = { url, bytes, digest: `d${digest++}`, group: from.group };
      } else p = { url, bytes, digest: `d${digest++}`, group: group++ };
      own.push(p);
    }
    pages.push(...own);
    if (rnd() < (o.mirrorShare ?? 0.05))
      for (const p of own)
        if (rnd() < 0.9) pages.push({ ...p, url: p.url.replace(`site-${s}.`, `mirror-${s}.`) });
  }
  return pages;
}

/** The whole crawl's duplicates by construction: pages − groups of (same digest ∪ same near group). */
export function trueDuplicates(pages: readonly WorldPage[]): number {
  return duplicatesAmong(pages.map((p) => ({ digest: p.digest, cluster: p.group })));
}

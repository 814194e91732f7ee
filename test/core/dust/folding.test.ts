import { describe, expect, it } from 'vitest';
import { foldUndecidedCompositions } from '../../../src/core/dust/folding';
import { seededRandom } from '../../../src/core/random';
import { params, substringRule, urlsOf } from './fixtures';

describe('foldUndecidedCompositions', () => {
  it('folds a likely or thinly refuted rule whose instances the valid rules merge; keeps one refuted at εN', () => {
    const seed = 9120261126;
    const rng = seededRandom(seed);
    const words = ['learn', 'maple', 'cinder', 'guide', 'ref', 'kb', 'node', 'teach'];
    const limit = Math.ceil(params().epsilon * params().N);
    for (let trial = 0; trial < 40; trial++) {
      // Pages under random directories, each with its /print/ copy and an .html spelling.
      const pages = Array.from(
        { length: 30 },
        () => `http://s.com/${words[Math.floor(rng() * words.length)]}/${Math.floor(rng() * 50)}`,
      );
      const urls = urlsOf(
        pages.flatMap((p) => [p, p.replace('s.com/', 's.com/print/'), `${p}.html`]).map((url) => ({ url })),
      );
      const valid = [
        substringRule('/print/', '/', 90, { status: 'valid', direction: 'shrinking', id: 0 }),
        substringRule('.html$', '$', 90, { status: 'valid', direction: 'shrinking', id: 1 }),
      ];
      const dir = words[Math.floor(rng() * words.length)];
      const negatives = Math.floor(rng() * 2 * limit);
      const status = rng() < 0.5 ? 'likely' : 'refuted';
      // A composition (/print/dir/ → /dir/) and a rule the valid ones do not make (/dir/ → /teach/).
      const composed = substringRule(`/print/${dir}/`, `/${dir}/`, 5, { id: 2, status, negatives });
      const other = substringRule(`/${dir}/`, '/zz/', 5, { id: 3, status, negatives });
      const rules = [...valid, composed, other];
      foldUndecidedCompositions(rules, urls, params());
      const has = urls.some((u) => u.url.includes(`/print/${dir}/`));
      const expected = has && (status === 'likely' || negatives < limit);
      const why = `seed ${seed} trial ${trial}: ${status}, ${negatives} negatives, ${dir}`;
      expect(composed.coveredBy !== undefined, why).toBe(expected);
      if (expected) expect(composed.coveredBy, why).toEqual([0]);
      expect(other.coveredBy, why).toBeUndefined();
    }
  });
});

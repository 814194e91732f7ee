/**
 * A rule that holds in one section of a site and not in the rest (issue "Canonical URLs and crawler
 * rules that are safe to act on"): refuted across the site, valid where it holds, applied there only.
 * Seeded random sites; the seed is in every message.
 */
import { describe, expect, it } from 'vitest';
import { ruleSpelling, runDustBuster, type DustRecord } from '../../../src/core/dust';
import { seededRandom } from '../../../src/core/random';
import { page } from './fixtures';

describe('a rule valid in one section only', () => {
  for (let seed = 1; seed <= 8; seed++) {
    it(`dir/ → dir where /docs/ answers both spellings and /blog/ serves two pages, seed ${seed}`, () => {
      const rnd = seededRandom(seed * 97);
      const records: DustRecord[] = [];
      let doc = 1;
      const docs = 40 + Math.floor(rnd() * 40);
      const blog = 20 + Math.floor(rnd() * 30);
      for (let k = 0; k < docs; k++) {
        const d = doc++;
        records.push(page(`http://s.test/docs/topic${k}/`, d), page(`http://s.test/docs/topic${k}`, d));
      }
      for (let k = 0; k < blog; k++) {
        records.push(page(`http://s.test/blog/post${k}/`, doc++), page(`http://s.test/blog/post${k}`, doc++));
      }
      // Other pages of the site, so the list looks like a site.
      for (let k = 0; k < 30; k++) records.push(page(`http://s.test/about/p${k}.html`, doc++));
      const dust = runDustBuster(records);
      const msg = `seed ${seed}: ${dust.rules.map((r) => `${r.status} ${ruleSpelling(r)} ${r.reason}`).join('\n')}`;
      const rule = dust.rules.find((r) => r.status === 'valid' && r.validIn);
      expect(rule, msg).toBeDefined();
      expect(rule!.validIn, msg).toEqual(['http://s.test/docs/']);
      // Canonisation merges the docs' two spellings and leaves the blog's two pages apart.
      for (let k = 0; k < docs; k++) {
        const a = dust.canonical.get(`http://s.test/docs/topic${k}/`) ?? `http://s.test/docs/topic${k}/`;
        const b = dust.canonical.get(`http://s.test/docs/topic${k}`) ?? `http://s.test/docs/topic${k}`;
        expect(a, msg).toBe(b);
      }
      for (let k = 0; k < blog; k++) {
        const a = dust.canonical.get(`http://s.test/blog/post${k}/`) ?? `http://s.test/blog/post${k}/`;
        const b = dust.canonical.get(`http://s.test/blog/post${k}`) ?? `http://s.test/blog/post${k}`;
        expect(a, msg).not.toBe(b);
      }
    });
  }
});

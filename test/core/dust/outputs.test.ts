import { describe, expect, it } from 'vitest';
import { DUST_DEFAULTS, runDustBuster } from '../../../src/core/dust';
import { canonicalTable, crawlerRegexFile, rulesJson } from '../../../src/core/dust/outputs';
import { jsReplacement } from '../../../src/core/dust/regex-export';
import { generateWorld } from '../../../scripts/lib/dust-world';
import { fetchedUrls } from '../../../scripts/lib/dust-world-score';

/** The <pattern>/<substitution> pairs of a regex-normalize.xml, in order, as JavaScript reads them. */
function regexesOf(xml: string): { re: RegExp; to: string }[] {
  const un = (s: string) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return [...xml.matchAll(/<pattern>([\s\S]*?)<\/pattern>\s*<substitution>([\s\S]*?)<\/substitution>/g)].map(
    ([, p, r]) => ({ re: new RegExp(un(p), 'g'), to: jsReplacement(un(r)) }),
  );
}

const SEED = Number(process.env.OUTPUTS_SEED ?? Math.floor(Math.random() * 1e6));

describe('DUST outputs, as the workbench and the CLI write them', () => {
  // Random worlds (a fresh seed each run, printed): sites by port, one-section rules, mirrors that
  // redirect, daily blogs (a few thousand URLs: up to ~25 s on a loaded machine; not a timed test).
  for (let k = 0; k < 3; k++) {
    const seed = SEED + k;
    it(`the crawler file, read by a plain regex engine, gives every URL its canonical URL, a fetched one (OUTPUTS_SEED=${seed})`, () => {
      const world = generateWorld(seed, 0.3);
      const dust = runDustBuster(world.records);
      const xml = crawlerRegexFile({ ...dust, params: DUST_DEFAULTS });
      const list = regexesOf(xml);
      const fetched = fetchedUrls(world);
      const unfetched = new Set(dust.unfetched);
      for (const [url, canonical] of dust.canonical) {
        let c = url;
        for (const { re, to } of list) c = c.replace(re, to);
        expect(c, `seed ${seed}: ${url}`).toBe(canonical);
        if (!unfetched.has(canonical))
          expect(fetched.has(canonical), `seed ${seed}: ${canonical}`).toBe(true);
      }
    }, 120_000);
  }

  it('the canonical table flags a canonical URL no URL of its class was fetched at, beside the rule form', () => {
    const rows = canonicalTable({
      params: DUST_DEFAULTS,
      rules: [],
      canonical: [
        ['http://s.test/a?sid=1', 'http://s.test/a'],
        ['http://s.test/go/7', 'http://s.test/go/7'],
      ],
      ruleForm: [['http://s.test/b/', 'http://s.test/b']],
      unfetched: ['http://s.test/go/7'],
    });
    expect(rows[0]).toEqual(['url', 'surt', 'canonical', 'canonical_surt', 'canonical_fetched', 'rule_form']);
    expect(rows[1]).toEqual([
      'http://s.test/a?sid=1',
      'test,s)/a?sid=1',
      'http://s.test/a',
      'test,s)/a',
      'yes',
      'http://s.test/a',
    ]);
    expect(rows[2][4]).toBe('no');
  });

  it('the rules JSON spells each rule as the table does, with what it saves and adds', () => {
    const dust = runDustBuster(generateWorld(SEED, 0.2).records);
    const json = rulesJson({ ...dust, params: DUST_DEFAULTS }, { [dust.rules[0]?.id ?? 0]: 3 }, {}) as {
      rules: { rule: string; saved: number | null; adds: number | null }[];
    };
    expect(json.rules.length).toBe(dust.rules.length);
    if (json.rules.length > 0) expect(json.rules[0].saved).toBe(3);
  });
});

/**
 * DUST on a designed sample (core/dust/partners.ts, sample-dust.ts): a rule's instances as validation
 * draws them, the partners of sampled URLs chosen within the caps, and the rules validated again with
 * them in hand — against brute-force references on seeded random sites (a fresh seed each run, printed;
 * PARTNERS_SEED=… repeats one).
 */
import { describe, expect, it } from 'vitest';
import { buildUrlList } from '../../../src/core/dust/url-list';
import { applyRule, reversed } from '../../../src/core/dust/rules';
import {
  choosePartners,
  SampleInstances,
  sampleCoverage,
  type PartnerCaps,
} from '../../../src/core/dust/partners';
import { dustOnSample } from '../../../src/core/dust/sample-dust';
import { splitUrls } from '../../../src/core/dust/validation';
import type { DustParams, DustRecord, DustUrl, Rule } from '../../../src/core/dust/types';
import { normaliseUrl } from '../../../src/core/url/normalize';
import { seededRandom, type Rng } from '../../../src/core/random';
import { logged, page, params, substringRule } from './fixtures';

const seed = Number(process.env.PARTNERS_SEED ?? Math.floor(Math.random() * 1e9));

const H = 'http://s.com';

/**
 * A site whose story N is at /story?id=N, /story_N and /a/N (each present or not), with ?sid= copies
 * and pages of their own; a sample of whole "directories" (first path segment), as the design cuts a
 * large site. Every URL has its size (the index's record length), the sampled ones a document.
 */
function site(rng: Rng) {
  const urls: { url: string; doc: number }[] = [];
  const n = 20 + Math.floor(rng() * 60);
  for (let k = 1; k <= n; k++) {
    const forms = [`${H}/story?id=${k}`, `${H}/story_${k}`, `${H}/a/${k}`].filter(() => rng() < 0.7);
    if (rng() < 0.3) forms.push(`${H}/p/${k}.html?sid=${Math.floor(rng() * 5)}`, `${H}/p/${k}.html`);
    for (const url of forms) urls.push({ url, doc: k });
  }
  for (let k = 1; k <= 20; k++) urls.push({ url: `${H}/misc/x${k}.html`, doc: 1000 + k });
  const dirs = ['story', 'story_', 'a', 'p', 'misc'];
  const drawn = new Set(dirs.filter(() => rng() < 0.4));
  const dirOf = (u: string) => {
    const path = new URL(u).pathname;
    return path.startsWith('/story_') ? 'story_' : path.split('/')[1];
  };
  const sampled = new Set(urls.filter((u) => drawn.has(dirOf(u.url))).map((u) => normaliseUrl(u.url).href));
  return { urls, sampled };
}

const RULES = (): Rule[] => [
  substringRule('/story?id=', '/story_', 10, { id: 0 }),
  substringRule('/story_', '/a/', 10, { id: 1 }),
  { ...substringRule('x', 'y', 10, { id: 2 }), kind: 'param-drop', param: 'sid' } as Rule,
  substringRule('/misc/x1', '/misc/x2', 10, { id: 3 }),
];

/** Brute force: unordered pairs {x, y} of the list, x in the test list and R(x) or R⁻¹(x) spelling y. */
function referencePairs(rule: Rule, urls: readonly DustUrl[], test: readonly DustUrl[]): Set<string> {
  const out = new Set<string>();
  const ways = rule.kind === 'substring' ? [rule, reversed(rule)] : [rule];
  for (const x of test)
    for (const way of ways) {
      const v = applyRule(way, x.url);
      if (v === null) continue;
      const n = normaliseUrl(v).href;
      for (const y of urls)
        if (y.url !== x.url && (y.url === v || y.url === n))
          out.add(x.url < y.url ? `${x.url}\n${y.url}` : `${y.url}\n${x.url}`);
    }
  return out;
}

const key = ([a, b]: [string, string]) => (a < b ? `${a}\n${b}` : `${b}\n${a}`);

describe(`a sample's rule instances and partners (seed ${seed}; PARTNERS_SEED=${seed} repeats it)`, () => {
  it('finds each rule’s instances as validation draws them (split or not), as a brute force does', () => {
    for (let k = 0; k < 20; k++) {
      const s = seed + k;
      const rng = seededRandom(s);
      const { urls: world } = site(rng);
      const p: DustParams = params({ splitMinUrls: rng() < 0.5 ? 20_000 : 10, seed: s });
      const urls = buildUrlList(world.map((w) => logged(w.url, 100 + w.doc))).urls;
      const share = urls.length < p.splitMinUrls ? 0 : p.validationShare;
      const test = splitUrls(urls, share, p.seed).validation;
      const instances = new SampleInstances(urls, p);
      for (const rule of RULES()) {
        const got = instances.pairs(rule).map(key);
        expect(new Set(got).size, `seed ${s} rule ${rule.id}: each pair once`).toBe(got.length);
        expect(new Set(got), `seed ${s} rule ${rule.id}`).toEqual(referencePairs(rule, urls, test));
      }
    }
  });

  it('gives partners only to instances with one URL in hand, at most N a rule, within the caps, a round at a time', () => {
    for (let k = 0; k < 20; k++) {
      const s = seed + 100 + k;
      const rng = seededRandom(s);
      const { urls: world, sampled } = site(rng);
      const p = params({ seed: s });
      const urls = buildUrlList(world.map((w) => logged(w.url, 100 + w.doc))).urls;
      const instances = new SampleInstances(urls, p);
      const inHand = (u: string) => sampled.has(u);
      const rules = RULES();
      const caps: PartnerCaps = {
        perRule: 1 + Math.floor(rng() * 30),
        records: rng() < 0.5 ? 10_000 : 1 + Math.floor(rng() * 40),
        bytes: rng() < 0.7 ? 1e9 : 500 + Math.floor(rng() * 5000),
      };
      const label = `seed ${s}, caps ${JSON.stringify(caps)}`;
      const c = choosePartners(rules, instances, inHand, caps, s);
      expect(choosePartners(rules, instances, inHand, caps, s), `${label}: the same again`).toEqual(c);
      const open = rules.map((r) => {
        const pairs = instances.pairs(r);
        const whole = pairs.filter(([u, v]) => inHand(u) && inHand(v)).length;
        const others = new Set(
          pairs.filter(([u, v]) => inHand(u) !== inHand(v)).map(([u, v]) => (inHand(u) ? v : u)),
        );
        return { others, need: Math.min(others.size, Math.max(0, caps.perRule - whole)) };
      });
      const all = new Set(open.flatMap((o) => [...o.others]));
      const chosen = new Set(c.urls);
      expect(chosen.size, label).toBe(c.urls.length);
      for (const u of c.urls) {
        expect(inHand(u), `${label}: ${u} is not in hand`).toBe(false);
        expect(all.has(u), `${label}: ${u} partners an instance`).toBe(true);
      }
      const size = (u: string) => instances.byUrl.get(u)!.sizeMax;
      expect(c.bytes).toBe(c.urls.reduce((a, u) => a + size(u), 0));
      expect(c.urls.length, label).toBeLessThanOrEqual(caps.records);
      expect(c.bytes, label).toBeLessThanOrEqual(caps.bytes);
      expect(c.wanted, label).toBe(open.reduce((a, o) => a + o.need, 0));
      // No rule gets more than it needs beyond what other rules share with it.
      for (const o of open) {
        const mine = [...o.others].filter((u) => chosen.has(u)).length;
        if (!c.capped) expect(mine, label).toBeGreaterThanOrEqual(o.need);
      }
      expect(c.urls.length, label).toBeLessThanOrEqual(c.wanted);
      // A round at a time: under a record cap as large as the rules needing partners, each gets one.
      const needing = open.filter((o) => o.need > 0);
      const tight = new Set(
        choosePartners(rules, instances, inHand, { ...caps, records: needing.length, bytes: 1e9 }, s).urls,
      );
      for (const o of needing)
        expect(
          [...o.others].some((u) => tight.has(u)),
          `${label}: every rule served`,
        ).toBe(true);
      // sampleCoverage counts what a brute force counts.
      for (const r of rules) {
        const pairs = instances.pairs(r);
        const cov = sampleCoverage(r, instances, inHand, (u) => inHand(u) || chosen.has(u));
        expect(cov.instances).toBe(pairs.length);
        expect(cov.inSample).toBe(pairs.filter(([u, v]) => inHand(u) && inHand(v)).length);
        expect(cov.inHand).toBe(
          pairs.filter(([u, v]) => (inHand(u) || chosen.has(u)) && (inHand(v) || chosen.has(v))).length,
        );
      }
    }
  });
});

/**
 * A crawl of two sites: on s.com each story at /story?id=N and /story_N (the same document), the
 * sample holding the /story?id= directory only; on t.com /x/N.html ↔ /y/N.html, none of it sampled.
 */
function twoSites() {
  const mined: DustRecord[] = [];
  const pages = new Map<string, DustRecord>();
  const sampled: DustRecord[] = [];
  for (let k = 1; k <= 60; k++) {
    for (const url of [`${H}/story?id=${k}`, `${H}/story_${k}`]) {
      mined.push(logged(url, 3000 + 37 * k));
      pages.set(url, page(url, k, 3000 + 37 * k));
    }
    sampled.push(page(`${H}/story?id=${k}`, k, 3000 + 37 * k));
    for (const url of [`http://t.com/x/${k}.html`, `http://t.com/y/${k}.html`]) {
      mined.push(logged(url, 5000 + 41 * k));
      pages.set(url, page(url, 500 + k, 5000 + 41 * k));
    }
  }
  for (let k = 1; k <= 30; k++) {
    mined.push(logged(`${H}/misc/m${k}.html`, 9000 + k * 13));
    sampled.push(page(`${H}/misc/m${k}.html`, 900 + k, 9000 + k * 13));
  }
  return { mined, pages, sampled };
}

describe('DUST on a sample: partners read, rules validated again', () => {
  const spell = (r: Rule) => (r.kind === 'substring' ? `${r.alpha.join('')} → ${r.beta.join('')}` : r.kind);

  it('a rule whose partners are read is validated on them; one with no URL in the sample says so', async () => {
    const { mined, pages, sampled } = twoSites();
    const asked: string[][] = [];
    const on = await dustOnSample(mined, sampled, params(), {
      read: async (urls) => {
        asked.push(urls);
        const records = urls.map((u) => pages.get(u)!).filter(Boolean);
        return { records, bytes: records.length * 1000, ranges: records.length, ms: 1 };
      },
    });
    const story = on.result.rules.find((r) => r.site === 's.com' && /story/.test(spell(r)));
    expect(story?.status, story && spell(story)).toBe('valid');
    expect(story?.sample).toBeUndefined();
    expect(asked).toHaveLength(1);
    expect(asked[0].every((u) => u.startsWith(`${H}/story_`))).toBe(true);
    expect(asked[0].length).toBeLessThanOrEqual(100);
    expect(on.partners).toMatchObject({ state: 'read', read: asked[0].length });
    expect(on.partners.judgedAfter).toBeGreaterThan(on.partners.judgedBefore);
    const t = on.result.rules.filter((r) => r.site === 't.com');
    expect(t.length).toBeGreaterThan(0);
    for (const r of t) {
      expect(r.status).toBe('likely');
      expect(r.sample, spell(r)).toMatchObject({ inSample: 0, inHand: 0 });
      expect(r.sample!.instances).toBeGreaterThan(0);
    }
    // Every rule still likely says what the sample holds of it.
    for (const r of on.result.rules) expect(r.status !== 'likely' || r.sample !== undefined).toBe(true);
  });

  it('without the crawl’s files, nothing is read and the rules stay likely, each with k of n', async () => {
    const { mined, sampled } = twoSites();
    const on = await dustOnSample(mined, sampled, params(), { missing: 'no-files' });
    expect(on.partners.state).toBe('no-files');
    expect(on.partners.asked).toBeGreaterThan(0);
    const story = on.result.rules.find((r) => r.site === 's.com' && /story/.test(spell(r)));
    expect(story?.status).toBe('likely');
    expect(story?.sample).toMatchObject({ inSample: 0, inHand: 0, instances: 60 });
  });
});

/**
 * Families of sparse rules (issue 45, item 3) against a brute-force reference, on seeded random sites
 * (the seed is in every failure message) where every value of a typed token has 1–4 instances: dates
 * with 1–4 articles each, hex session ids and version numbers on 1–4 pages each. The reference spells
 * each instance's candidate rule on its own (the pair's difference, from the URLs' strings), groups
 * the candidates by typed-token shape and sums their instances; the implementation (pairSpellings,
 * then generalise) must give the same families with the same summed supports. Then each family the
 * site was built with is one rule whose count is its number of instances, and detectPairRules keeps
 * it as a candidate with that support.
 */
import { describe, expect, it } from 'vitest';
import { applyRule, likelySubstringRule } from '../../../src/core/dust/rules';
import { generalise, wordType } from '../../../src/core/dust/generalise';
import { detectPairRules, pairSpellings } from '../../../src/core/dust/pair-rules';
import { DUST_DEFAULTS, type DustRecord } from '../../../src/core/dust/types';
import { seededRandom } from '../../../src/core/random';
import { pick, randInt, shuffle } from '../../../scripts/lib/prng';
import { sketchOf, urlsOf } from './fixtures';

const MS = DUST_DEFAULTS.MS;
const WORDS = 'oak pine fern reef dune sage iris kelp mesa opal tide moss wren lark vale'.split(' ');
const O = 'http://fam.test';

interface Family {
  name: string;
  /** Alias → the URL it is an alias of. */
  pairs: [string, string][];
  /** Built so that the reference finds nothing for it (two sections: two rules, each too sparse). */
  none?: boolean;
}

/** A site of several families; every URL of one document shares its digest. */
function site(seed: number): { records: DustRecord[]; families: Family[] } {
  const rng = seededRandom(seed);
  const records: DustRecord[] = [];
  let doc = 0;
  const put = (url: string, d: number) =>
    records.push({
      url,
      status: 200,
      sizeMin: 900 + d,
      sizeMax: 900 + d,
      sketch: sketchOf(d),
      digest: `d${d}`,
    });
  const two = (x: number, pad: boolean) => (pad ? String(x).padStart(2, '0') : String(x));
  const ids = new Set<number>();
  const newId = () => {
    let id = randInt(rng, 3000, 99_999);
    while (ids.has(id)) id = randInt(rng, 3000, 99_999);
    ids.add(id);
    return id;
  };
  /** k dates from a start, one to three days apart (a year boundary is often crossed: two years). */
  const days = (k: number) => {
    const start = Date.UTC(randInt(rng, 2005, 2022), randInt(rng, 0, 11), randInt(rng, 1, 28));
    const step = randInt(rng, 1, 3);
    return Array.from({ length: k }, (_, i) => new Date(start + i * step * 86_400_000));
  };
  const families: Family[] = [];

  // Date permalinks of a blog: /Y/M/D/ID/ ↔ /noun.php?id=ID.
  {
    const noun = pick(rng, ['news', 'story', 'post']);
    const pad = rng() < 0.7;
    const f: Family = { name: 'date-id', pairs: [] };
    for (const d of days(randInt(rng, 20, 150)))
      for (let a = randInt(rng, 1, 4); a > 0; a--) {
        const id = newId();
        const base = `${O}/${noun}.php?id=${id}`;
        const alias = `${O}/${d.getUTCFullYear()}/${two(d.getUTCMonth() + 1, pad)}/${two(d.getUTCDate(), pad)}/${id}/`;
        put(base, ++doc);
        put(alias, doc);
        f.pairs.push([alias, base]);
      }
    families.push(f);
  }
  // Slugs by month: /Y/M/slug/ ↔ /read/slug, consecutive months, each with 1–4 articles.
  {
    const f: Family = { name: 'month-slug', pairs: [] };
    const slugs = new Set<string>();
    const first = randInt(rng, 2005 * 12, 2022 * 12);
    for (let k = randInt(rng, 10, 40) - 1; k >= 0; k--)
      for (let a = randInt(rng, 1, 4); a > 0; a--) {
        const slug = shuffle(rng, WORDS)
          .slice(0, randInt(rng, 2, 4))
          .join('-');
        if (slugs.has(slug)) continue;
        slugs.add(slug);
        const m = first + k;
        const alias = `${O}/${Math.floor(m / 12)}/${two((m % 12) + 1, true)}/${slug}/`;
        const base = `${O}/read/${slug}`;
        put(base, ++doc);
        put(alias, doc);
        f.pairs.push([alias, base]);
      }
    families.push(f);
  }
  // Pages of two sections, visited under hex session prefixes (/~a3f9c2e1/docs/p.html), each
  // session on 1–4 pages, and under ?v=N (a version number on 1–4 pages each).
  const pages = (sec: string, n: number) =>
    Array.from({ length: n }, (_, k) => {
      const url = `${O}/${sec}/${WORDS[k % WORDS.length]}${Math.floor(k / WORDS.length) || ''}.html`;
      put(url, ++doc);
      return { url, doc };
    });
  {
    const f: Family = { name: 'hex-session', pairs: [] };
    const docs = pages('docs', randInt(rng, 20, 60));
    for (let s = randInt(rng, 10, 40); s > 0; s--) {
      let hex = '';
      while (!/[0-9]/.test(hex) || !/[a-f]/.test(hex))
        hex = Array.from({ length: 8 }, () => '0123456789abcdef'[randInt(rng, 0, 15)]).join('');
      for (const p of shuffle(rng, docs).slice(0, randInt(rng, 1, 4))) {
        const alias = `${O}/~${hex}${p.url.slice(O.length)}`;
        put(alias, p.doc);
        f.pairs.push([alias, p.url]);
      }
    }
    families.push(f);
  }
  {
    const f: Family = { name: 'version', pairs: [] };
    const docs = pages('guide', randInt(rng, 20, 60));
    const used = new Set<number>();
    for (let s = randInt(rng, 10, 40); s > 0; s--) {
      const v = randInt(rng, 100, 9999);
      if (used.has(v)) continue;
      used.add(v);
      for (const p of shuffle(rng, docs).slice(0, randInt(rng, 1, 4))) {
        const alias = `${p.url}?v=${v}`;
        put(alias, p.doc);
        f.pairs.push([alias, p.url]);
      }
    }
    families.push(f);
  }
  // Date permalinks under 1–4 sections (/blog/Y/M/D/ID/ ↔ /item/ID): one section is a literal,
  // three or more a wildcard; two are two rules that differ in a plain word, and neither is found.
  {
    const sections = shuffle(rng, ['blog', 'notes', 'diary', 'log']).slice(0, randInt(rng, 1, 4));
    const f: Family = { name: `sectioned (${sections.length})`, pairs: [], none: sections.length === 2 };
    for (const d of days(randInt(rng, 15, 60)))
      for (let a = randInt(rng, 1, 4); a > 0; a--) {
        const id = newId();
        const base = `${O}/item/${id}`;
        const alias = `${O}/${pick(rng, sections)}/${d.getUTCFullYear()}/${two(d.getUTCMonth() + 1, true)}/${two(d.getUTCDate(), true)}/${id}/`;
        put(base, ++doc);
        put(alias, doc);
        f.pairs.push([alias, base]);
      }
    families.push(f);
  }
  return { records, families };
}

// ---------------------------------------------------------------------------------------------------
// The reference: strings and regular expressions, every instance on its own.

const TOKEN = /[A-Za-z0-9]+|[^A-Za-z0-9]/g;
const tokens = (url: string) => ['^', ...(url.match(TOKEN) ?? []), '$'];
const isWord = (t: string) => /^[A-Za-z0-9]+$/.test(t);

/** The pair's difference (pair-rules.ts): common prefix and suffix off, a separator kept either side. */
function difference(u: string, v: string): [string[], string[]] | null {
  const a = tokens(u);
  const b = tokens(v);
  let p = 0;
  while (p < a.length && p < b.length && a[p] === b[p]) p++;
  let q = 0;
  while (q < a.length - p && q < b.length - p && a[a.length - 1 - q] === b[b.length - 1 - q]) q++;
  const mu = a.slice(p, a.length - q);
  const mv = b.slice(p, b.length - q);
  if (mu.length > DUST_DEFAULTS.S || mv.length > DUST_DEFAULTS.S) return null;
  const authorityEnd = a.findIndex(
    (t, i) => t === '/' && a.slice(0, i + 1).filter((x) => x === '/').length === 3,
  );
  const left =
    p <= (authorityEnd < 0 ? a.length : authorityEnd) ? a.slice(0, p) : isWord(a[p - 1]) ? [] : [a[p - 1]];
  const right = isWord(a[a.length - q]) ? [] : [a[a.length - q]];
  const alpha = [...left, ...mu, ...right];
  const beta = [...left, ...mv, ...right];
  return alpha.length && beta.length ? [alpha, beta] : null;
}

/** A side's elements: words (alphanumeric runs joined by '-') and single separators. */
const elements = (side: string): string[] => side.match(/[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*|[^A-Za-z0-9]/g) ?? [];
const WORD_EL = /^[A-Za-z0-9]/;
/** A word's type: digits, a slug, a hex id (6+ hex digits with a digit and a letter, one case), a word. */
function typeOf(w: string): 'n' | 's' | 'h' | 'w' {
  if (/^[0-9]+$/.test(w)) return 'n';
  if (w.includes('-')) return 's';
  if ((/^[0-9a-f]{6,}$/.test(w) || /^[0-9A-F]{6,}$/.test(w)) && /[0-9]/.test(w) && /[a-fA-F]/.test(w))
    return 'h';
  return 'w';
}

interface Member {
  alpha: string[];
  beta: string[];
  /** Per β element: the α element it carries, or -1. */
  ref: number[];
  count: number;
}

/** Families as `α → β` (wildcards {n#k}, {x#k}, {s#k} by first place in α) → summed instances. */
function reference(pairs: readonly [string, string][]): Map<string, number> {
  const shapes = new Map<string, Map<string, Member>>();
  for (const [u, v] of pairs) {
    const d = difference(u, v);
    if (!d) continue;
    const [x, y] = d.map((s) => elements(s.join('')));
    for (const [alpha, beta] of [
      [x, y],
      [y, x],
    ]) {
      const ref = beta.map((e) => {
        if (!WORD_EL.test(e)) return -1;
        const at = alpha.flatMap((f, i) => (f === e ? [i] : []));
        return at.length === 1 ? at[0] : -1;
      });
      const key = [
        ...alpha.map((e) => (WORD_EL.test(e) ? `<${typeOf(e)}>` : e)),
        '→',
        ...beta.map((e, j) => (ref[j] >= 0 ? `=${ref[j]}` : e)),
      ].join(' ');
      const spelled = `${alpha.join('')} → ${beta.join('')}`;
      const g = shapes.get(key) ?? new Map<string, Member>();
      shapes.set(key, g);
      const m = g.get(spelled);
      if (m) m.count++;
      else g.set(spelled, { alpha, beta, ref, count: 1 });
    }
  }
  const out = new Map<string, number>();
  for (const g of shapes.values()) {
    const members = [...g.values()];
    const count = members.reduce((s, m) => s + m.count, 0);
    if (members.length < 2 || count < MS) continue;
    const a = members[0].alpha;
    const values = a.map((_, i) => new Set(members.map((m) => m.alpha[i])));
    const name = (i: number) => a[i + 1] === '=' || a[i - 1] === '&';
    const varies = a.map(
      (e, i) => WORD_EL.test(e) && !name(i) && values[i].size >= (typeOf(e) === 'w' ? MS : 2),
    );
    if (!varies.some(Boolean)) continue;
    if (a.some((e, i) => WORD_EL.test(e) && !varies[i] && values[i].size > 1)) continue;
    const wild = new Map<number, string>();
    a.forEach((_, i) => {
      if (!varies[i]) return;
      const all = [...values[i]];
      const t = all.every((w) => /^[0-9]+$/.test(w)) ? 'n' : all.every((w) => !w.includes('-')) ? 'x' : 's';
      wild.set(i, `{${t}#${wild.size + 1}}`);
    });
    const m0 = members[0];
    const alpha = a.map((e, i) => wild.get(i) ?? e).join('');
    const beta = m0.beta.map((e, j) => (m0.ref[j] >= 0 ? (wild.get(m0.ref[j]) ?? e) : e)).join('');
    const k = `${alpha} → ${beta}`;
    out.set(k, (out.get(k) ?? 0) + count);
  }
  // Of a rule and its reverse, the shrinking one: longer, or as long and later in token order.
  for (const k of [...out.keys()]) {
    const [alpha, beta] = k.split(' → ');
    const back = `${beta} → ${alpha}`;
    if (!out.has(back) || !out.has(k)) continue;
    const ta = alpha.match(/\{[nxs]#\d+\}|[A-Za-z0-9]+|[^A-Za-z0-9]/g)!;
    const tb = beta.match(/\{[nxs]#\d+\}|[A-Za-z0-9]+|[^A-Za-z0-9]/g)!;
    let shrinks = ta.length > tb.length;
    if (ta.length === tb.length) {
      const i = ta.findIndex((t, j) => t !== tb[j]);
      shrinks = ta[i] > tb[i];
    }
    out.delete(shrinks ? back : k);
  }
  return out;
}

/** The implementation's rule with its wildcards renamed as the reference names them. */
function normalised(alpha: readonly string[], beta: readonly string[]): string {
  const names = new Map<string, string>();
  const rename = (t: string) => {
    const m = /^\{([ymdnxs])\d*\}$/.exec(t);
    if (!m) return t;
    if (!names.has(t)) names.set(t, `{${'ymdn'.includes(m[1]) ? 'n' : m[1]}#${names.size + 1}}`);
    return names.get(t)!;
  };
  const a = alpha.map(rename).join('');
  return `${a} → ${beta.map(rename).join('')}`;
}

/** Every pair of URLs with one document (what the implementation reads from the list). */
function samePairs(records: readonly DustRecord[]): [string, string][] {
  const byDoc = new Map<string, string[]>();
  for (const r of records) byDoc.set(r.digest!, [...(byDoc.get(r.digest!) ?? []), r.url]);
  const out: [string, string][] = [];
  for (const g of byDoc.values())
    for (let i = 0; i < g.length; i++) for (let j = i + 1; j < g.length; j++) out.push([g[i], g[j]]);
  return out;
}

describe('families of sparse rules: the implementation against the brute-force reference', () => {
  for (let seed = 1; seed <= 30; seed++) {
    it(`seed ${seed}`, () => {
      const { records, families } = site(seed);
      const urls = urlsOf(records);
      const got = new Map<string, number>();
      for (const g of generalise(pairSpellings(urls, DUST_DEFAULTS), MS)) {
        const k = normalised(g.alpha, g.beta);
        got.set(k, (got.get(k) ?? 0) + g.count);
      }
      const want = reference(samePairs(records));
      const show = (m: Map<string, number>) => [...m].map(([k, n]) => `${k} (${n})`).sort();
      expect(show(got), `seed ${seed}`).toEqual(show(want));

      // Each family the site was built with: one rule for all its instances, their count summed.
      const candidates = detectPairRules(urls, DUST_DEFAULTS, []);
      for (const f of families) {
        const maps = (alpha: string[], beta: string[]) => {
          const r = likelySubstringRule('fam.test', alpha, beta);
          return f.pairs.every(([alias, base]) => applyRule(r, alias) === base);
        };
        const general = generalise(pairSpellings(urls, DUST_DEFAULTS), MS).filter((g) =>
          maps(g.alpha, g.beta),
        );
        if (f.none) {
          expect(general, `seed ${seed}: ${f.name}`).toEqual([]);
          continue;
        }
        expect(general.length, `seed ${seed}: ${f.name}: ${show(got).join('; ')}`).toBeGreaterThan(0);
        expect(Math.max(...general.map((g) => g.count)), `seed ${seed}: ${f.name}`).toBe(f.pairs.length);
        // Then a candidate as any rule, its support counted over the list: exactly its instances.
        const kept = candidates.filter((r) => maps(r.alpha, r.beta));
        expect(kept.length, `seed ${seed}: ${f.name}`).toBeGreaterThan(0);
        expect(Math.max(...kept.map((r) => r.support)), `seed ${seed}: ${f.name}`).toBe(f.pairs.length);
      }
    });
  }
});

describe('word types', () => {
  it('the reference reads values as generalise does', () => {
    const rng = seededRandom(45);
    const samples = [
      '2024',
      '04',
      'a3f9c2e1',
      'A3F9C2E1',
      'a3F9c2e1',
      'deadbeef',
      '12345678',
      'c0ffee',
      'c0ffe',
    ];
    samples.push('tide-river', 'v2', 'index', '2024-04-14', 'x1');
    for (let k = 0; k < 200; k++)
      samples.push(
        Array.from({ length: randInt(rng, 1, 10) }, () => pick(rng, [...'0123456789abcdefABCDEFxyz'])).join(
          '',
        ),
      );
    for (const w of samples) expect(wordType(w), w).toBe(typeOf(w));
    expect(['2024', 'a3f9c2e1', 'tide-river', 'deadbeef', 'v2'].map(typeOf)).toEqual([
      'n',
      'h',
      's',
      'w',
      'w',
    ]);
  });
});

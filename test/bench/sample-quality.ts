/**
 * `npm run bench:sample [-- FILE [TRUTH]]`: every method at its default thresholds on the embedded sample
 * crawl (sample/sample.warc.gz, truth in sample/truth.json, whose schema differs from docsite's): pair
 * precision and recall against the truth's duplicate groups, what the clusters (connected components)
 * do with them, the 5-shingle Jaccard of unrelated pages, and whether DustBuster finds every planted
 * DUST rule. Pass another file and truth to measure an older sample (before/after numbers).
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { analysePages } from '../../src/core/candidates/analyse-pages';
import { ENGINE_DEFAULTS } from '../../src/core/candidates/engine-params';
import { accepts, DEFAULT_THRESHOLDS, METHOD_LABELS, type MethodId } from '../../src/core/candidates/methods';
import { connectedComponents } from '../../src/core/clusters/clusters';
import { type DustRecord } from '../../src/core/dust';
import { normaliseUrl } from '../../src/core/url/normalize';
import { reportDustTruth, type DustTruth } from './dust-docsite';
import { readCrawl } from './read-crawl';

interface SampleTruth {
  pages: {
    kind: string;
    url: string;
    status: number;
    mime: string;
    group: string | null;
    canonical: string;
    dust_rules: string[];
  }[];
  dust_rules: { id: string; kind: string; instances: number }[];
  not_duplicate_pairs: [string, string, string][];
}

const file = resolve(process.argv[2] ?? join(import.meta.dirname, '../../sample/sample.warc.gz'));
const truthFile = resolve(process.argv[3] ?? join(dirname(file), 'truth.json'));
const truth = JSON.parse(readFileSync(truthFile, 'utf8')) as SampleTruth;
const norm = (u: string) => normaliseUrl(u).href;
const groupOf = new Map<string, string>();
const kindOf = new Map<string, string>();
for (const p of truth.pages) {
  if (p.group) groupOf.set(norm(p.url), p.group);
  kindOf.set(norm(p.url), p.kind);
}

const crawl = await readCrawl(file);
const urls = crawl.pages.map((pg) => pg.normUrl);
const texts = crawl.pages.map((pg) => pg.text);
const dustRecords: DustRecord[] = crawl.dustRecords;
// The ground truth names every record: captures of one URL stay pages of their own here.
const kept = analysePages(crawl.pages, {
  template: { ...ENGINE_DEFAULTS.template, strip: false },
  captures: 'each',
}).result;
const result = analysePages(crawl.pages, { captures: 'each' }).result;
const p = result.pairs;
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

const sizes = new Map<string, number>();
for (const u of urls) {
  const g = groupOf.get(u);
  if (g !== undefined) sizes.set(g, (sizes.get(g) ?? 0) + 1);
}
let positives = 0;
for (const s of sizes.values()) positives += (s * (s - 1)) / 2;
const same = (i: number, j: number) => {
  const g = groupOf.get(urls[i]);
  return g !== undefined && g === groupOf.get(urls[j]);
};
console.log(
  `${file}: ${urls.length} pages compared (every comparable page, as the app and the CLI), ${p.count} candidate pairs; truth: ${sizes.size} groups, ${positives} duplicate pairs`,
);

// Pair level (what the method accepts) and cluster level (what connected components make of it:
// one wrong edge between two groups makes every cross pair of the merged cluster a false positive).
console.log(
  '\nmethod at its defaults               pairs  precision  recall | clusters  largest  cluster-pair precision  recall',
);
const found = new Map<MethodId, Set<string>>();
for (const [mode, r] of [
  ['template text left out (the default)', result],
  ["template text kept (whole page, the papers' setting)", kept],
] as const) {
  console.log(`${mode}:`);
  const p = r.pairs;
  for (const m of Object.keys(METHOD_LABELS) as MethodId[]) {
    const ok = (k: number) => accepts(p, m, DEFAULT_THRESHOLDS, k);
    let n = 0;
    let tp = 0;
    for (let k = 0; k < p.count; k++) {
      if (!ok(k)) continue;
      n++;
      if (same(p.a[k], p.b[k])) tp++;
    }
    if (r === result) {
      found.set(m, new Set());
      for (let k = 0; k < p.count; k++)
        if (ok(k) && same(p.a[k], p.b[k])) found.get(m)!.add(`${p.a[k]} ${p.b[k]}`);
    }
    const clusters = connectedComponents(r.n, p.a, p.b, ok);
    let cn = 0;
    let ctp = 0;
    let largest = 0;
    for (const c of clusters) {
      largest = Math.max(largest, c.members.length);
      for (let x = 0; x < c.members.length; x++)
        for (let y = x + 1; y < c.members.length; y++) {
          cn++;
          if (same(c.members[x], c.members[y])) ctp++;
        }
    }
    console.log(
      `  ${METHOD_LABELS[m].padEnd(32)} ${String(n).padStart(6)} ${pct(n ? tp / n : 1).padStart(9)} ${pct(tp / positives).padStart(7)} | ${String(clusters.length).padStart(8)} ${String(largest).padStart(8)} ${pct(cn ? ctp / cn : 1).padStart(23)} ${pct(ctp / positives).padStart(7)}`,
    );
  }
}

// Chinese pages (text with 。, the GBK/zh site): feature code's own ground (Peng et al. §2.2).
{
  const zh = texts.map((t) => t.includes('。'));
  let positives = 0;
  for (let i = 0; i < urls.length; i++)
    for (let j = i + 1; j < urls.length; j++) if (zh[i] && zh[j] && same(i, j)) positives++;
  for (const m of ['feature-code', 'minhash'] as MethodId[]) {
    let n = 0;
    let tp = 0;
    for (let k = 0; k < p.count; k++) {
      if (!zh[p.a[k]] || !zh[p.b[k]] || !accepts(p, m, DEFAULT_THRESHOLDS, k)) continue;
      n++;
      if (same(p.a[k], p.b[k])) tp++;
    }
    console.log(
      `Chinese pages (${zh.filter(Boolean).length}, ${positives} duplicate pairs), ${METHOD_LABELS[m]}: precision ${pct(n ? tp / n : 1)}, recall ${pct(positives ? tp / positives : 1)} (${n} pairs)`,
    );
  }
}

// Which duplicate pairs each method misses, by the kinds of the two pages (aliases, mirror, reposts).
const byKind = new Map<string, [number, number][]>();
for (let i = 0; i < urls.length; i++)
  for (let j = i + 1; j < urls.length; j++) {
    if (!same(i, j)) continue;
    const key = [kindOf.get(urls[i]), kindOf.get(urls[j])].sort().join(' ~ ');
    byKind.set(key, [...(byKind.get(key) ?? []), [i, j]]);
  }
console.log(
  '\nduplicate pairs found, by page kinds        ' +
    (Object.keys(METHOD_LABELS) as MethodId[]).map((m) => m.padStart(12)).join(''),
);
for (const [key, prs] of [...byKind].sort()) {
  const cells = (Object.keys(METHOD_LABELS) as MethodId[]).map((m) =>
    `${prs.filter(([i, j]) => found.get(m)!.has(`${i} ${j}`)).length}/${prs.length}`.padStart(12),
  );
  console.log(`  ${key.padEnd(40)} ${cells.join('')}`);
}

// Not-duplicate pairs of the truth (same template or URL shape, different documents) that a method accepts.
const idx = new Map(urls.map((u, i) => [u, i]));
const pairIndex = new Map<string, number>();
for (let k = 0; k < p.count; k++) pairIndex.set(`${p.a[k]} ${p.b[k]}`, k);
const nd = truth.not_duplicate_pairs.map(([a, b]) => {
  const [i, j] = [idx.get(norm(a)) ?? -1, idx.get(norm(b)) ?? -1].sort((x, y) => x - y);
  return pairIndex.get(`${i} ${j}`) ?? -1;
});
console.log(`\nnot-duplicate pairs of the truth (${nd.length}) wrongly accepted:`);
for (const m of Object.keys(METHOD_LABELS) as MethodId[])
  console.log(
    `  ${METHOD_LABELS[m].padEnd(32)} ${nd.filter((k) => k >= 0 && accepts(p, m, DEFAULT_THRESHOLDS, k)).length}`,
  );

// Jaccard of word 5-shingles over the extracted text (templates included): unrelated pages should be far
// apart, members of a group close.
const shingles = (text: string) => {
  const t = text.toLowerCase().match(/[a-z0-9]+|[\u3400-\u9fff]/g) ?? [];
  const out = new Set<string>();
  for (let i = 0; i + 5 <= t.length; i++) out.add(t.slice(i, i + 5).join(' '));
  return out;
};
const sh = texts.map(shingles);
const jac = (i: number, j: number) => {
  const [a, b] = sh[i].size < sh[j].size ? [sh[i], sh[j]] : [sh[j], sh[i]];
  let inter = 0;
  for (const s of a) if (b.has(s)) inter++;
  const union = a.size + b.size - inter;
  return union ? inter / union : 1;
};
const unrelated: number[] = [];
const related: number[] = [];
const high: { j: number; a: string; b: string }[] = [];
let worst = { j: 0, a: '', b: '' };
for (let i = 0; i < urls.length; i++)
  for (let j = i + 1; j < urls.length; j++) {
    const v = jac(i, j);
    if (same(i, j)) related.push(v);
    else {
      unrelated.push(v);
      if (v > worst.j) worst = { j: v, a: urls[i], b: urls[j] };
      if (v >= 0.2) high.push({ j: v, a: urls[i], b: urls[j] });
    }
  }
const q = (xs: number[], f: number) => {
  const s = [...xs].sort((x, y) => x - y);
  return s.length ? s[Math.min(s.length - 1, Math.floor(f * s.length))].toFixed(3) : '–';
};
console.log(
  `\n5-shingle Jaccard (extracted text): unrelated pairs ${unrelated.length}: median ${q(unrelated, 0.5)}, 99th pct ${q(unrelated, 0.99)}, ` +
    `max ${worst.j.toFixed(3)} (${worst.a} ~ ${worst.b}), ${unrelated.filter((v) => v >= 0.2).length} pairs ≥ 0.2`,
);
for (const h of high.sort((x, y) => y.j - x.j).slice(0, 10))
  console.log(`  ${h.j.toFixed(3)}  ${h.a}  ${h.b}`);
console.log(
  `                                    same-group pairs ${related.length}: min ${q(related, 0)}, 10th pct ${q(related, 0.1)}, median ${q(related, 0.5)}`,
);

// DUST: the sample's truth in the shape the docsite report reads (group ids as numbers). A rule whose
// instances all change host (the mirror) relates two sites: DustBuster mines rules inside one site
// (Bar-Yossef et al. §4), so it cannot find those; they are reported apart, with the content methods'
// recall on their pairs standing in.
const crossSite = new Set(
  truth.dust_rules
    .filter((r) => {
      const inst = truth.pages.filter((pg) => pg.dust_rules.includes(r.id));
      return inst.length > 0 && inst.every((pg) => new URL(pg.canonical).host !== new URL(pg.url).host);
    })
    .map((r) => r.id),
);
const gid = new Map<string, number>();
const dustTruth: DustTruth = {
  dust_rules: truth.dust_rules.filter((r) => !crossSite.has(r.id)),
  urls: truth.pages.map((pg) => {
    if (pg.group && !gid.has(pg.group)) gid.set(pg.group, gid.size);
    return {
      url: pg.url,
      variants: pg.dust_rules,
      group: pg.group ? gid.get(pg.group) : undefined,
      canonical: pg.canonical,
    };
  }),
};
const { allFound } = reportDustTruth(dustRecords, dustTruth, 'sites by registrable domain (the default)');
for (const id of crossSite) {
  const inst = truth.pages.filter((pg) => pg.dust_rules.includes(id));
  const cells = (Object.keys(METHOD_LABELS) as MethodId[]).map((m) => {
    let hit = 0;
    for (const pg of inst) {
      const [i, j] = [idx.get(norm(pg.url)) ?? -1, idx.get(norm(pg.canonical)) ?? -1].sort((x, y) => x - y);
      if (found.get(m)!.has(`${i} ${j}`)) hit++;
    }
    return `${m} ${hit}/${inst.length}`;
  });
  console.log(
    `  ${id.padEnd(14)} crosses sites (another host): not a DustBuster rule; its pairs found by content: ${cells.join(', ')}`,
  );
}
console.log(
  allFound
    ? '\nevery within-site DUST rule of truth.json is found and validated at the defaults'
    : '\nsome within-site DUST rules of truth.json are NOT found at the defaults',
);

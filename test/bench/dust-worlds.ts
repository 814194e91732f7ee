/**
 * `npm run bench:dust-worlds [-- --seed N] [--worlds 20] [--verbose] [--paper]`: DustBuster at its defaults on
 * random generated sites (scripts/lib/dust-world.ts), scored against their construction. A fresh seed
 * each run unless one is given; the seed is printed, and world k uses seed + k.
 *
 * Goals (issue "DUST rules that hold on sites nobody here built"): every true rule found for ≥ 95% of
 * its instances and ≥ 90% by one rule; canonisation merges ≥ 95% of the instances whose canonical URL
 * was crawled; rows listed ≤ 1.5 × true rules; no true rule refuted. Issue "Canonical URLs and crawler
 * rules that are safe to act on": canonical URLs fetched ≥ 99% and the crawler regex file sending ≤ 1%
 * of the crawled URLs to a URL the crawl did not fetch (the rules alone, without the file's last part
 * naming classes by a fetched member, are reported beside it).
 */
import { parseArgs } from 'node:util';
import { DUST_DEFAULTS, PAPER_SETTING, runDustBuster } from '../../src/core/dust';
import { generateWorld } from '../../scripts/lib/dust-world';
import { fetchedUrls, MIN_INSTANCES, safetyOf, scoreWorld } from '../../scripts/lib/dust-world-score';

const { values } = parseArgs({
  options: {
    seed: { type: 'string' },
    worlds: { type: 'string', default: '20' },
    verbose: { type: 'boolean', default: false },
    scale: { type: 'string', default: '1' },
    paper: { type: 'boolean', default: false },
  },
});
const seed = values.seed !== undefined ? Number(values.seed) : Math.floor(Math.random() * 1e9);
const worlds = Number(values.worlds);
const pct = (x: number, n: number) => (n === 0 ? '    –' : `${((100 * x) / n).toFixed(1).padStart(5)}%`);
const params = values.paper ? PAPER_SETTING : DUST_DEFAULTS;
console.log(
  `seed ${seed} (world k uses seed + k), ${worlds} worlds, ${values.paper ? "the paper's setting (--paper)" : 'defaults'}`,
);

let instances = 0;
let found = 0;
let direct = 0;
let merged = 0;
let mergeable = 0;
let rows = 0;
let validRows = 0;
let expected = 0;
let refuted = 0;
let wrong = 0;
let ms = 0;
const safe = {
  urls: 0,
  canonicalFetched: 0,
  crawlerUnfetched: 0,
  rulesAloneUnfetched: 0,
  renamed: 0,
  differ: 0,
};
/** The daily blogs' date permalinks (one article per date, dust-world.ts): instances and found. */
const daily = { rules: 0, instances: 0, found: 0 };
const failures: string[] = [];
const worst: { share: number; line: string }[] = [];
for (let k = 0; k < worlds; k++) {
  const world = generateWorld(seed + k, Number(values.scale));
  const t0 = performance.now();
  const dust = runDustBuster(world.records, params);
  const t = performance.now() - t0;
  ms += t;
  const s = scoreWorld(world, dust);
  const safety = safetyOf(fetchedUrls(world), dust);
  for (const k of Object.keys(safe) as (keyof typeof safe)[]) safe[k] += safety[k];
  const counted = s.rules.filter((r) => r.instances >= MIN_INSTANCES);
  const sum = (f: (r: (typeof counted)[number]) => number) => counted.reduce((a, r) => a + f(r), 0);
  instances += sum((r) => r.instances);
  found += sum((r) => r.found);
  direct += sum((r) => r.direct);
  merged += sum((r) => r.merged);
  mergeable += sum((r) => r.mergeable);
  rows += s.rows;
  validRows += s.validRows;
  expected += s.expected;
  refuted += s.refutedTrue.length;
  wrong += s.wrongValid.length;
  console.log(
    `world ${String(seed + k).padStart(10)}: ${String(dust.list.urls).padStart(5)} URLs, ${world.sites.length} site(s), ` +
      `${s.expected} true rules; found ${pct(
        sum((r) => r.found),
        sum((r) => r.instances),
      )}, one rule ${pct(
        sum((r) => r.direct),
        sum((r) => r.instances),
      )}, ` +
      `merged ${pct(
        sum((r) => r.merged),
        sum((r) => r.mergeable),
      )}; rows ${s.rows} (${s.validRows} valid, ${(s.rows / Math.max(1, s.expected)).toFixed(2)}×); ` +
      `p@10 ${s.precisionAt10 === null ? '–' : pct(s.precisionAt10, 1)}; refuted true ${s.refutedTrue.length}, wrong valid ${s.wrongValid.length}; ` +
      `canonical fetched ${pct(safety.canonicalFetched, safety.urls)}, crawler → unfetched ${pct(safety.crawlerUnfetched, safety.urls)} ` +
      `(rules alone ${pct(safety.rulesAloneUnfetched, safety.urls)}, ${safety.renamed} renamed${safety.differ ? `, ${safety.differ} DIFFER` : ''}); ${(t / 1000).toFixed(2)} s`,
  );
  for (const r of s.rules) {
    if (r.rule.spelling.endsWith('(one a day)')) {
      daily.rules++;
      daily.instances += r.instances;
      daily.found += r.found;
    }
    const rare = r.instances < MIN_INSTANCES;
    const line = `  ${rare ? '(rare) ' : ''}${r.rule.kind.padEnd(15)} ${r.rule.spelling.slice(0, 70).padEnd(70)} ${String(r.instances).padStart(4)} inst: found ${pct(r.found, r.instances)}, one rule ${pct(r.direct, r.instances)}, merged ${pct(r.merged, r.mergeable)}  ${r.by.slice(0, 2).join(', ')}`;
    if (!rare && (r.found < 0.95 * r.instances || r.direct < 0.9 * r.instances))
      worst.push({ share: r.found / r.instances, line: `${seed + k}${line}` });
    if (values.verbose || (!rare && (r.found < 0.95 * r.instances || r.direct < 0.9 * r.instances)))
      console.log(line);
  }
  for (const x of s.refutedTrue) console.log(`  refuted although true: ${x}`);
  for (const x of s.wrongValid) console.log(`  valid although wrong: ${x}`);
  if (values.verbose)
    for (const r of dust.rules)
      console.log(
        `    [${r.status}] ${r.kind} ${r.site} ${r.likelySimilarSupport}  ${r.kind === 'substring' ? r.alpha.join('') + ' → ' + r.beta.join('') : JSON.stringify(r)}`.slice(
          0,
          200,
        ),
      );
}

const rowsRatio = rows / Math.max(1, expected);
console.log(
  `\noverall: ${instances} instances of ${expected} true rules; found ${pct(found, instances)}, one rule ${pct(direct, instances)}, ` +
    `canonisation merges ${pct(merged, mergeable)}; rows ${rows} (${validRows} valid) = ${rowsRatio.toFixed(2)}× true rules; ` +
    `true rules refuted ${refuted}, wrong rules valid ${wrong}; DustBuster ${(ms / 1000).toFixed(1)} s`,
);
console.log(
  `safety: canonical URLs fetched ${pct(safe.canonicalFetched, safe.urls)} of ${safe.urls} crawled 2xx URLs; ` +
    `crawler file sends ${pct(safe.crawlerUnfetched, safe.urls)} to unfetched URLs (rules alone ${pct(safe.rulesAloneUnfetched, safe.urls)}; ` +
    `${safe.renamed} classes named by a fetched member; ${safe.differ} URLs where the file and the workbench differ)`,
);
if (safe.canonicalFetched < 0.99 * safe.urls) failures.push('canonical URLs fetched < 99%');
if (safe.crawlerUnfetched > 0.01 * safe.urls) failures.push('crawler rules send > 1% to unfetched URLs');
if (safe.differ > 0) failures.push('the crawler file and the workbench differ');
console.log(
  `daily blogs (one article per date): ${daily.rules} date-permalink rules, ${daily.instances} instances, found ${pct(daily.found, daily.instances)}`,
);
if (worst.length > 0) failures.push(`${worst.length} true rules under 95% found or 90% by one rule`);
if (merged < 0.95 * mergeable) failures.push('canonisation merges < 95%');
if (rowsRatio > 1.5) failures.push('rows > 1.5 × true rules');
if (refuted > 0) failures.push('true rules refuted');
console.log(failures.length === 0 ? 'goals met' : `goals NOT met: ${failures.join('; ')}`);

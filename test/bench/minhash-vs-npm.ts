/**
 * `npx tsx test/bench/minhash-vs-npm.ts [PAGES]`: our minhashSignature against the npm package
 * `minhash` (duhaime/minhash 0.0.9, devDependency) in the same run, on the same generated pages
 * (default 2,000 of ~300 words), the same word 5-shingles and 128 permutations. Prints pages/s for
 * the signature alone and for text → signature, the ratio, and both estimators' error against the
 * exact Jaccard on near-duplicate pairs.
 */
import { createRequire } from 'node:module';
import { minhashSignature, estimateJaccard } from '../../src/core/signatures/minhash';
import { SHINGLE_DEFAULTS, jaccard, shingleSet } from '../../src/core/signatures/shingles';
import { seededRandom } from '../../src/core/random';
import { tokenize } from '../../src/core/text/tokens';

/** The parts of npm `minhash` used here (it ships no types). */
interface NpmMinhash {
  update(shingle: string): void;
  jaccard(other: NpmMinhash): number;
}
type NpmMinhashClass = new (config?: { numPerm?: number; seed?: number }) => NpmMinhash;
const { Minhash } = createRequire(import.meta.url)('minhash') as { Minhash: NpmMinhashClass };

const PAGES = Number(process.argv[2] ?? 2000);
const WORDS = 300;
const K = 128;
const W = SHINGLE_DEFAULTS.w;

/** Pseudo-English pages: a 20,000-word vocabulary of syllable words, drawn Zipf-like. */
function makePages(n: number, seed: number): string[] {
  const rnd = seededRandom(seed);
  const syl = [
    'ka',
    'ro',
    'mi',
    'te',
    'su',
    'na',
    'lo',
    'pe',
    'ri',
    'da',
    'the',
    'and',
    'ing',
    'ver',
    'con',
    'al',
  ];
  const vocab = Array.from({ length: 20_000 }, () => {
    const len = 1 + Math.floor(rnd() * 3);
    return Array.from({ length: len }, () => syl[Math.floor(rnd() * syl.length)]).join('');
  });
  const word = () => vocab[Math.floor(vocab.length * rnd() ** 3)];
  return Array.from({ length: n }, () => {
    const words = Array.from({ length: WORDS }, word);
    for (let i = 12; i < words.length; i += 13) words[i] += '.';
    return words.join(' ');
  });
}

/** The distinct word 5-shingles as strings: what shingleSet hashes, in npm minhash's input form. */
function shingleStrings(text: string): string[] {
  const t = tokenize(text);
  const out = new Set<string>();
  for (let i = 0; i + W <= t.length; i++) out.add(t.slice(i, i + W).join(' '));
  return [...out];
}

function best(runs: number, f: () => void): number {
  let min = Infinity;
  for (let r = 0; r < runs; r++) {
    const t0 = performance.now();
    f();
    min = Math.min(min, performance.now() - t0);
  }
  return min;
}

const pages = makePages(PAGES, 1);
const hashed = pages.map((p) => shingleSet(p));
const strings = pages.map(shingleStrings);
const meanShingles = hashed.reduce((s, h) => s + h.length, 0) / PAGES;
const sameCounts = hashed.every((h, i) => h.length === strings[i].length);
const signatures = new Uint32Array(PAGES * K);

const oursSig = () => hashed.forEach((h, i) => minhashSignature(h, { permutations: K }, signatures, i * K));
const npmSig = () =>
  strings.forEach((ss) => {
    const m = new Minhash({ numPerm: K });
    for (const s of ss) m.update(s);
  });
const oursText = () =>
  pages.forEach((p, i) => minhashSignature(shingleSet(p), { permutations: K }, signatures, i * K));
const npmText = () =>
  pages.forEach((p) => {
    const m = new Minhash({ numPerm: K });
    for (const s of shingleStrings(p)) m.update(s);
  });

// Warm both up on a slice before timing (JIT), then best of 3 runs, interleaved.
const warm = Math.min(200, PAGES);
hashed.slice(0, warm).forEach((h) => minhashSignature(h));
strings.slice(0, warm).forEach((ss) => ss.forEach((s) => new Minhash({ numPerm: 4 }).update(s)));
const t = { oursSig: 0, npmSig: 0, oursText: 0, npmText: 0 };
t.oursSig = best(3, oursSig);
t.npmSig = best(3, npmSig);
t.oursText = best(3, oursText);
t.npmText = best(3, npmText);

const rate = (ms: number) => Math.round((PAGES / ms) * 1000).toLocaleString('en-US');
console.log(`${PAGES} pages × ${WORDS} words, ${meanShingles.toFixed(0)} distinct ${W}-shingles per page`);
console.log(`same shingle counts for both: ${sameCounts}; ${K} permutations; Node ${process.version}`);
console.log('');
console.log('                         ours pages/s     npm minhash pages/s    ratio');
for (const [label, ours, npm] of [
  ['signature only', t.oursSig, t.npmSig],
  ['text → signature', t.oursText, t.npmText],
] as const) {
  console.log(
    `${label.padEnd(22)} ${rate(ours).padStart(12)} ${rate(npm).padStart(22)} ${(npm / ours).toFixed(1).padStart(10)}×`,
  );
}

// Accuracy on near-duplicate pairs: each page against a copy with ~2% of its words replaced.
const rnd = seededRandom(2);
const pairs = Math.min(300, PAGES);
let errOurs = 0;
let errNpm = 0;
let errBinomial = 0;
for (let i = 0; i < pairs; i++) {
  const words = pages[i].split(' ');
  for (let e = 0; e < 6; e++) words[Math.floor(rnd() * words.length)] = 'edit' + e;
  const edited = words.join(' ');
  const exact = jaccard(shingleSet(pages[i]), shingleSet(edited));
  errOurs += Math.abs(
    estimateJaccard(minhashSignature(shingleSet(pages[i])), minhashSignature(shingleSet(edited))) - exact,
  );
  const [a, b] = [new Minhash({ numPerm: K }), new Minhash({ numPerm: K })];
  shingleStrings(pages[i]).forEach((s) => a.update(s));
  shingleStrings(edited).forEach((s) => b.update(s));
  errNpm += Math.abs(a.jaccard(b) - exact);
  // E|X − J| of an unbiased estimator with binomial spread (normal approximation).
  errBinomial += Math.sqrt((exact * (1 - exact)) / K) * Math.sqrt(2 / Math.PI);
}
console.log('');
console.log(`mean |estimate − exact Jaccard| over ${pairs} near-duplicate pairs:`);
const f4 = (x: number) => (x / pairs).toFixed(4);
console.log(
  `  ours ${f4(errOurs)}   npm minhash ${f4(errNpm)}   ideal k = ${K} estimator ${f4(errBinomial)}`,
);

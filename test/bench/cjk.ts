/**
 * `npm run bench:cjk`: word tokens of long Chinese text without a sentence end (the worst case for
 * Intl.Segmenter, whose ICU dictionary break is quadratic in the run length in Node 20), at 250 KB,
 * 1 MB and 2 MB of UTF-8. tokenize() segments pieces of at most SEGMENT_MAX units, so the time should
 * grow linearly: the ratios printed should be near the size ratios (4× and 2×). Goal: 1 MB < 1 s.
 * For scale, the unbounded Segmenter on one 64 KB run is timed too.
 */
import { seededRandom } from '../../src/core/random';
import { SEGMENT_MAX, tokenize } from '../../src/core/text/tokens';

/** Clauses of ordinary Chinese prose, joined without 。！？ or line breaks (as on the slow real page). */
const CLAUSES = [
  '中华人民共和国是一个位于东亚的国家',
  '我们今天去北京大学参观了图书馆和博物馆',
  '然后在附近的饭店吃了烤鸭和饺子',
  '这个软件包提供了一个用于管理网络配置的命令行工具',
  '系统管理员可以通过编辑配置文件来修改默认设置',
  '搜索引擎需要识别内容相同但网址不同的网页',
  '近似重复的网页会浪费爬虫的带宽和存储空间',
];

/** About `bytes` bytes of UTF-8 Chinese (3 bytes per character), clauses in a seeded order. */
function chinese(bytes: number): string {
  const parts: string[] = [];
  let chars = 0;
  const rnd = seededRandom(12345);
  while (chars * 3 < bytes) {
    const c = CLAUSES[Math.floor(rnd() * CLAUSES.length)];
    parts.push(c);
    chars += c.length;
  }
  return parts.join('').slice(0, Math.floor(bytes / 3));
}

function time(f: () => unknown): number {
  const t = performance.now();
  f();
  return performance.now() - t;
}

tokenize(chinese(30_000)); // warm up the Segmenter and its dictionaries
const sizes: [string, number][] = [
  ['250 KB', 250_000],
  ['1 MB', 1_000_000],
  ['2 MB', 2_000_000],
];
const ms: number[] = [];
console.log(`Node ${process.version}, pieces of at most ${SEGMENT_MAX} UTF-16 units`);
for (const [label, bytes] of sizes) {
  const text = chinese(bytes);
  let words = 0;
  const t = time(() => (words = tokenize(text).length));
  ms.push(t);
  console.log(
    `${label.padEnd(7)} ${text.length.toLocaleString('en-US').padStart(9)} chars  ${words.toLocaleString('en-US').padStart(8)} words  ${(t / 1000).toFixed(2)} s`,
  );
}
console.log(
  `ratio   1 MB / 250 KB = ${(ms[1] / ms[0]).toFixed(2)} (linear: 4)   2 MB / 1 MB = ${(ms[2] / ms[1]).toFixed(2)} (linear: 2)`,
);
const seg = new Intl.Segmenter(undefined, { granularity: 'word' });
const run = chinese(64_000);
const unbounded = time(() => {
  for (const s of seg.segment(run)) void s.isWordLike;
});
console.log(`for scale: unbounded Intl.Segmenter on one 64 KB run ${(unbounded / 1000).toFixed(2)} s`);
console.log(ms[1] < 1000 ? 'goal met: 1 MB < 1 s' : 'GOAL MISSED: 1 MB took over 1 s');

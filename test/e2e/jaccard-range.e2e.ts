// Issue #24, item 3: the Jaccard slider went down to 0.30, but 0.80, 0.75, 0.50 and 0.30 gave the same
// "219 of 2,452 candidate pairs accepted": LSH bands were chosen for 0.8 alone, so pairs below it were
// never candidates. Moving the MinHash slider from its top to its bottom must change the accepted pairs,
// and at each value the accepted pairs must be the pairs an all-pairs exact Jaccard (the same shingles of
// the same main texts, computed here in Node) puts at or above it.
//
// Tolerance: MinHash accepts a candidate by its exact Jaccard, so an accepted pair is never wrong and
// the accepted count can only fall short of the all-pairs count, by the pairs LSH did not propose. A
// pair at Jaccard J is missed with probability 1 − S(J) for the bands chosen for the slider's minimum
// (S the S-curve, ≤ 1% at the minimum, far less above it); the shortfall may be at most μ + 3√μ, μ the
// sum of those probabilities over the all-pairs set (a Poisson bound on the misses). The estimate
// itself plays no part (it only orders nothing; acceptance reads the exact value).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { RANGES } from '../../src/core/candidates/methods';
import { bandsForMinimum, sCurve } from '../../src/core/signatures/lsh';
import { jaccard, shingleSet } from '../../src/core/signatures/shingles';
import { mainTexts, TEMPLATE_DEFAULTS } from '../../src/core/text/template';
import { readCrawl } from '../bench/read-crawl';
import { appForSuite } from './harness';
import { computeSignatures, openCrawl, openSample, words, writeCrawl } from './small-crawl';

const SAMPLE = join(import.meta.dirname, '../../sample/sample.warc.gz');
const LO = RANGES.jaccard[0];

/** Exact Jaccard of every pair of pages at or above the slider's minimum, as the engine reads them. */
async function allPairs(file: string): Promise<number[]> {
  const { pages } = await readCrawl(file);
  const texts = mainTexts(
    pages.map((p) => ({ url: p.normUrl, text: p.text, hints: p.templateHints })),
    TEMPLATE_DEFAULTS,
  );
  const sets = texts.map((t) => shingleSet(t));
  const out: number[] = [];
  for (let i = 0; i < sets.length; i++)
    for (let j = i + 1; j < sets.length; j++) {
      const J = jaccard(sets[i], sets[j]);
      if (J >= LO) out.push(J);
    }
  return out;
}

/**
 * 24 pairs of pages whose 5-word shingle sets have Jaccard spread evenly over [0.3, 1.0]: page B keeps
 * page A's first k words and continues with words of its own, sharing s = k − 4 of the N = W − 4
 * shingles of each, J = s / (2N − s). Each pair is its own site (two pages: no template text).
 */
function spreadCrawl(): string {
  const W = 304;
  const N = W - 4;
  const pages = [];
  for (let i = 0; i < 24; i++) {
    const target = 0.3 + (0.7 * i) / 23;
    const s = Math.round((2 * N * target) / (1 + target));
    const a = words(1000 + i, W);
    const b = [...a.slice(0, s + 4), ...words(5000 + i, W - s - 4)];
    pages.push({ url: `http://pair${i}.test/a`, title: `pair ${i} a`, text: a.join(' ') });
    pages.push({ url: `http://pair${i}.test/b`, title: `pair ${i} b`, text: b.join(' ') });
  }
  return writeCrawl('jaccard-spread.warc', pages);
}

describe('the Jaccard slider reads complete candidates over its whole range, in Chromium', () => {
  let page: Page;
  appForSuite((a) => (page = a.page));

  const accepted = async (): Promise<number> => {
    const s = (await page.getByTestId('cluster-summary').textContent()) ?? '';
    return Number(/([\d,]+) of [\d,]+ candidate pairs accepted/.exec(s)?.[1].replace(/,/g, '') ?? NaN);
  };

  /** Moves the slider from its top to its bottom; at every 0.05 the accepted pairs against all pairs. */
  async function sweep(truth: number[]): Promise<Map<number, number>> {
    await page.getByLabel('Method', { exact: true }).selectOption('minhash');
    const slider = page.getByRole('slider', { name: 'jaccard' });
    assert.equal(await slider.getAttribute('min'), String(LO), 'the slider reaches its documented minimum');
    await slider.focus();
    await page.keyboard.press('End');
    const { bands, rows } = bandsForMinimum(128, LO);
    const seen = new Map<number, number>();
    for (;;) {
      const v = Number(await slider.inputValue());
      if (Math.round(v * 100) % 5 === 0) {
        const got = await accepted();
        const at = truth.filter((J) => J >= v - 1e-9);
        const mu = at.reduce((m, J) => m + 1 - sCurve(J, bands, rows), 0);
        const slack = Math.floor(mu + 3 * Math.sqrt(mu));
        assert.ok(got <= at.length, `J ≥ ${v}: ${got} accepted, only ${at.length} pairs are at or above it`);
        assert.ok(
          at.length - got <= slack,
          `J ≥ ${v}: ${got} accepted, all pairs give ${at.length} (at most ${slack} LSH misses expected)`,
        );
        seen.set(v, got);
      }
      if (v <= LO + 1e-9) break;
      await page.keyboard.press('ArrowLeft');
      await page.waitForFunction((x) => Number((document.activeElement as HTMLInputElement).value) < x, v);
    }
    return seen;
  }

  it('on the sample: top to bottom changes the accepted pairs, each value as all pairs', async () => {
    const truth = await allPairs(SAMPLE);
    await openSample(page);
    await computeSignatures(page);
    const seen = await sweep(truth);
    assert.notEqual(seen.get(1), seen.get(LO), `J ≥ 1 and J ≥ ${LO} accept different pairs`);
    assert.ok((seen.get(LO) ?? 0) > (seen.get(0.8) ?? 0), 'pairs below 0.8 are accepted at the bottom');
  });

  it('on a generated crawl of pairs spread over Jaccard 0.3–1.0: the same', async () => {
    const file = spreadCrawl();
    const truth = await allPairs(file);
    assert.ok(truth.filter((J) => J < 0.8).length >= 10, 'the crawl has pairs between 0.3 and 0.8');
    await openCrawl(page, file, 'jaccard-spread.warc');
    await page.locator('.dataset-list li', { hasText: 'jaccard-spread.warc' }).click();
    await computeSignatures(page);
    const seen = await sweep(truth);
    const counts = [...seen.values()];
    assert.ok(new Set(counts).size >= 10, `the accepted pairs change along the slider: ${counts.join(', ')}`);
  });
});

import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DUST_DEFAULTS, runDustBuster, type DustRecord, type DustResult } from '../../../src/core/dust';
import { dustRecordOf } from '../../../src/core/dust/from-page';
import {
  jsReplacement,
  nutchRegexXml,
  passesNeeded,
  rulesAsRegex,
  type RegexRule,
} from '../../../src/core/dust/regex-export';
import { ingest } from '../../../src/core/ingest/pipeline';
import { generateWorld } from '../../../scripts/lib/dust-world';

const SAMPLE = fileURLToPath(new URL('../../../sample/sample.warc.gz', import.meta.url));

/**
 * A plain regex engine (JavaScript's): each rule in order, every match replaced (Java's replaceAll, as
 * Nutch's and StormCrawler's regex normalisers apply them), the list once unless told to repeat it.
 */
function applyAll(url: string, list: readonly RegexRule[], maxIterations = 1): string {
  const compiled = list.map((r) => ({
    re: new RegExp(r.pattern, 'g'),
    // Java's replacement escapes a '$' as '\$'; JavaScript as '$$'.
    to: jsReplacement(r.replacement),
  }));
  let current = url;
  for (let it = 0; it < maxIterations; it++) {
    const before = current;
    for (const { re, to } of compiled) current = current.replace(re, to);
    if (current === before) break;
  }
  return current;
}

function expectSameCanonical(dust: DustResult, label: string): number {
  const once = rulesAsRegex(dust.rules, DUST_DEFAULTS.site);
  const changedPairs = [...dust.canonical].filter(([u, c]) => u !== c);
  // The exported file holds the list as many times as canonisation needs passes (passesNeeded).
  const passes = passesNeeded(once, changedPairs);
  const list = Array.from({ length: passes }, () => once).flat();
  let changed = 0;
  for (const [url, canonical] of dust.canonical) {
    // One pass over the file, as the crawlers apply it; repeating it changes nothing more.
    expect(applyAll(url, list), `${label}: ${url}`).toBe(canonical);
    expect(applyAll(url, list, DUST_DEFAULTS.maxIterations), `${label}: ${url}`).toBe(canonical);
    if (canonical !== url) changed++;
  }
  // The XML holds the list that many times.
  const xml = nutchRegexXml(once, passes);
  expect(xml.split('<regex>').length - 1).toBe(once.length * passes);
  return changed;
}

describe('valid rules exported as regex rules for crawlers', () => {
  it('give the workbench canonical URL for every URL of the sample', async () => {
    const records: DustRecord[] = [];
    await ingest(
      createReadStream(SAMPLE) as AsyncIterable<Uint8Array>,
      { fileName: 'sample.warc.gz', totalBytes: 0 },
      async (b) => {
        for (const { page, content } of b) records.push(dustRecordOf(page, content.text, content.headers));
      },
    );
    const dust = runDustBuster(records);
    expect(expectSameCanonical(dust, 'sample')).toBeGreaterThan(100);
    const xml = nutchRegexXml(rulesAsRegex(dust.rules, DUST_DEFAULTS.site));
    expect(xml).toMatch(/<regex-normalize>[\s\S]*<pattern>[\s\S]*<substitution>/);
  });

  // Seeded generated worlds: wildcards ({y}, {s}, {o}), path parameters, parameter drops, several sites.
  for (const seed of [21, 22, 23, 24]) {
    it(`give the canonical URL of every URL of generated world ${seed}`, () => {
      const dust = runDustBuster(generateWorld(seed, 0.25).records);
      expect(expectSameCanonical(dust, `world seed ${seed}`)).toBeGreaterThan(0);
    });
  }
});

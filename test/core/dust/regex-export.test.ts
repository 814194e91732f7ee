import { createReadStream } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DUST_DEFAULTS, runDustBuster, type DustRecord, type DustResult } from '../../../src/core/dust';
import { dustRecordOf } from '../../../src/core/dust/from-page';
import {
  jsReplacement,
  nutchRegexXml,
  passesNeeded,
  renamedAsRegex,
  rulesAsRegex,
  type RegexRule,
} from '../../../src/core/dust/regex-export';
import { ingest } from '../../../src/core/ingest/pipeline';
import { generateWorld } from '../../../scripts/lib/dust-world';
import { normaliseUrl } from '../../../src/core/url/normalize';

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

/**
 * One pass over the exported file gives each URL the workbench's canonical URL, and that URL is one
 * the crawl fetched with a 2xx (`fetched`): the rules' passes, then the classes named by a fetched
 * member other than their rule form.
 */
function expectSameCanonical(dust: DustResult, label: string, fetched: ReadonlySet<string>): number {
  const once = rulesAsRegex(dust.rules, DUST_DEFAULTS.site);
  // The exported file holds the list as many times as canonisation needs passes (passesNeeded).
  const passes = passesNeeded(once, dust.ruleForm);
  const renamed = renamedAsRegex(dust.renamed);
  const list = [...Array.from({ length: passes }, () => once).flat(), ...renamed];
  let changed = 0;
  for (const [url, canonical] of dust.canonical) {
    // One pass over the file, as the crawlers apply it; repeating it changes nothing more.
    expect(applyAll(url, list), `${label}: ${url}`).toBe(canonical);
    expect(applyAll(url, list, DUST_DEFAULTS.maxIterations), `${label}: ${url}`).toBe(canonical);
    if (!dust.unfetched.includes(canonical))
      expect(fetched.has(canonical), `${label}: ${canonical}`).toBe(true);
    if (canonical !== url) changed++;
  }
  // The XML holds the list that many times, then the renamed classes once.
  const xml = nutchRegexXml(once, passes, renamed);
  expect(xml.split('<regex>').length - 1).toBe(once.length * passes + renamed.length);
  return changed;
}

/** The URLs a list of records fetched with a 2xx (or without a status), normalised. */
function fetchedOf(records: readonly DustRecord[]): Set<string> {
  return new Set(records.filter((r) => (r.status ?? 0) < 300).map((r) => normaliseUrl(r.url).href));
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
    expect(expectSameCanonical(dust, 'sample', fetchedOf(records))).toBeGreaterThan(100);
    // A class with no member fetched is named by one of its URLs (a redirect whose target was not crawled).
    for (const u of dust.unfetched) expect(dust.canonical.has(u)).toBe(true);
    const xml = nutchRegexXml(rulesAsRegex(dust.rules, DUST_DEFAULTS.site));
    expect(xml).toMatch(/<regex-normalize>[\s\S]*<pattern>[\s\S]*<substitution>/);
  });

  // Seeded generated worlds: wildcards ({y}, {s}, {o}), path parameters, parameter drops, several sites.
  for (const seed of [21, 22, 23, 24]) {
    it(`give the canonical URL of every URL of generated world ${seed}`, () => {
      const { records } = generateWorld(seed, 0.25);
      const dust = runDustBuster(records);
      expect(expectSameCanonical(dust, `world seed ${seed}`, fetchedOf(records))).toBeGreaterThan(0);
    });
  }
});

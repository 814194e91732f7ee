import { describe, expect, it } from 'vitest';
import { PAPER_SETTING, runDustBuster } from '../../../src/core/dust/index';
import { generateWorld } from '../../../scripts/lib/dust-world';
import type { DustPhase, DustRecord, Rule } from '../../../src/core/dust/types';
import { logged, page } from './fixtures';
import { seededRandom } from '../../../src/core/random';

/**
 * A small crawl of one site with three planted kinds of DUST — story?id=N ↔ story_N (§1's forum site),
 * dir/ ↔ dir/index.html (§1), a sessionid parameter — among pages that only look alike: numbered
 * pictures, pagination, dated articles.
 */
function crawl(kind: 'crawl' | 'log'): { records: DustRecord[]; aliases: string[][] } {
  const rnd = seededRandom(11);
  const records: DustRecord[] = [];
  const aliases: string[][] = [];
  let doc = 0;
  const add = (urls: string[]) => {
    const d = ++doc;
    for (const u of urls)
      records.push(kind === 'crawl' ? page(u, d, 2000 + 37 * d) : logged(u, 2000 + 37 * d));
    if (urls.length > 1) aliases.push(urls);
  };
  const H = 'http://www.site.com';
  for (let n = 1; n <= 90; n++)
    add(n <= 70 ? [`${H}/story?id=${n}`, `${H}/story_${n}`] : [`${H}/story?id=${n}`]);
  for (let k = 1; k <= 80; k++) {
    const dir = `${H}/topics/t${k}/`;
    add(k <= 60 ? [dir, `${dir}index.html`] : [dir]);
  }
  for (let k = 1; k <= 80; k++) {
    const sessions = Array.from({ length: 1 + (k % 3) }, () => Math.floor(rnd() * 1e9).toString(36));
    add([`${H}/page.php?item=${k}`, ...sessions.map((s) => `${H}/page.php?item=${k}&sessionid=${s}`)]);
  }
  for (let k = 1; k <= 40; k++) add([`${H}/img/pic-${k}.jpg`]);
  for (let k = 1; k <= 40; k++) add([`${H}/list?page=${k}`]);
  for (let k = 1; k <= 60; k++) add([`${H}/news/2006/0${1 + (k % 9)}/story-${k}.html`]);
  records.push({ url: `${H}/missing`, status: 404 });
  return { records, aliases };
}

const spell = (r: Rule) =>
  r.kind === 'substring' ? `${r.alpha.join('')} → ${r.beta.join('')}` : `${r.kind} ${r.param}`;

describe('runDustBuster end to end', () => {
  const { records, aliases } = crawl('crawl');
  const phases: DustPhase[] = [];
  const result = runDustBuster(records, {}, undefined, (p) => {
    if (phases.at(-1) !== p) phases.push(p);
  });
  const valid = result.rules.filter((r) => r.status === 'valid').map(spell);

  it('reports its phases in order', () => {
    expect(phases).toEqual([
      'url-list',
      'detect',
      'redundancy',
      'params',
      'pairs',
      'validate',
      'canonize',
      'metrics',
      'done',
    ]);
    expect(result.list).toMatchObject({ urls: records.length - 1, errorRecords: 1 });
    // Fewer than splitMinUrls: detection and validation both read the whole list.
    expect(result.list).toMatchObject({ split: false, detection: result.list.urls });
  });

  it('finds and validates the planted rules, each pointing where its rewrites land', () => {
    // Every story is crawled as story?id=N, 70 of 90 as story_N as well: story_N → story?id=N sends
    // every URL to a fetched one, the shrinking direction a fifth of them to URLs nobody fetched.
    expect(valid).toContain('^http://www.site.com/story_ → ^http://www.site.com/story?id=');
    expect(valid.some((r) => /index\.html\$ → .*\$$/.test(r) && !r.includes('story'))).toBe(true);
    expect(valid).toContain('param-drop sessionid');
    for (const r of result.rules.filter((x) => x.status === 'valid' && x.kind === 'substring')) {
      expect(r.direction).toBe(spell(r).includes('story') ? 'growing' : 'shrinking');
      expect(r.instances.length).toBeGreaterThan(0);
    }
  });

  it("keeps §5.3's shrinking direction first in the paper's setting", () => {
    const paper = runDustBuster(records, PAPER_SETTING);
    const story = paper.rules.filter((r) => r.status === 'valid' && spell(r).includes('story'));
    expect(story.map(spell)).toContain('^http://www.site.com/story?id= → ^http://www.site.com/story_');
    for (const r of story) expect(r.direction).toBe('shrinking');
  });

  it('finds nothing among numbered pictures, pages and articles', () => {
    expect(valid.filter((r) => /pic|page=|news|\d/.test(r))).toEqual([]);
    expect(result.metrics.precision[0]).toBe(1);
    expect(result.metrics.detected).toBeGreaterThan(result.metrics.afterRedundancy);
  });

  it('canonization merges the aliases and nothing else', () => {
    for (const group of aliases) {
      expect(new Set(group.map((u) => result.canonical.get(u)))).toHaveProperty('size', 1);
    }
    const others = records.filter((r) => !aliases.some((g) => g.includes(r.url)) && r.status === 200);
    expect(new Set(others.map((r) => result.canonical.get(r.url))).size).toBe(others.length);
    expect(result.cycles).toEqual([]);
    expect(result.metrics.coverage.value).toBe(1);
    const merged = aliases.reduce((n, g) => n + g.length - 1, 0);
    expect(result.metrics.redundancy).toEqual({
      before: result.list.urls,
      after: result.list.urls - merged,
      value: merged / result.list.urls,
    });
  });

  it('keeps rules likely, with a reason, when the list comes from a server log (sizes only)', () => {
    const log = runDustBuster(crawl('log').records);
    const story = log.rules.find((r) => spell(r).startsWith('^http://www.site.com/story?id='));
    expect(story).toMatchObject({ status: 'likely', direction: 'undecided' });
    expect(story?.reason).toMatch(/no content/);
    expect(log.metrics.valid).toBe(0);
    expect(log.metrics.redundancy.value).toBe(0);
  });
});

describe('the detection/validation split', () => {
  const { records } = crawl('crawl');
  it('is skipped below splitMinUrls: both phases read the whole list', () => {
    const r = runDustBuster(records);
    expect(r.list).toMatchObject({ split: false, detection: r.list.urls, validation: r.list.urls });
  });
  it('holds validationShare out above it', () => {
    const r = runDustBuster(records, { splitMinUrls: 10 });
    expect(r.list.split).toBe(true);
    expect(r.list.detection + r.list.validation).toBe(r.list.urls);
    expect(r.list.validation / r.list.urls).toBeGreaterThan(0.4);
    expect(r.list.validation / r.list.urls).toBeLessThan(0.6);
  });
});

describe("the paper's setting, one click away", () => {
  it('runs Figs. 1–4 and parameter rules only: no rule from pairs, merged, transferred, path parameter or {o}', () => {
    for (const seed of [51, 52]) {
      const r = runDustBuster(generateWorld(seed, 0.25).records, PAPER_SETTING);
      const all = [...r.rules, ...r.folded];
      expect(all.length, `seed ${seed}`).toBeGreaterThan(0);
      for (const rule of all) {
        expect(rule.kind, `seed ${seed}`).not.toBe('path-param-drop');
        if (rule.kind === 'substring') {
          expect(rule.origin ?? 'envelopes', `seed ${seed}`).toBe('envelopes');
          expect(rule.alpha.includes('{o}'), `seed ${seed}`).toBe(false);
        }
      }
      expect(r.metrics.pairRules + r.metrics.mergedRules + r.metrics.transferred).toBe(0);
    }
  });
});

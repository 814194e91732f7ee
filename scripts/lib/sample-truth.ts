// Ground truth for the sample crawl: DUST rules, canonical URLs, duplicate
// groups (union of generator relations) and similarity figures.

import type { CrawlItem, NotDupPair, Relation } from './sample-crawl.ts';
import { DOCS, MIRROR } from './sample-docs.ts';
import { jaccard, mainText, shingles, visibleText } from './sample-html.ts';
import { NEWS } from './sample-news.ts';
import { ZH } from './sample-zh.ts';

export const DUST_RULES = [
  { id: 'R1', kind: 'drop_params', params: ['sessionid'], note: 'session id parameter' },
  {
    id: 'R2',
    kind: 'drop_params',
    params: ['utm_source', 'utm_medium', 'utm_campaign', 'ref'],
    note: 'tracking',
  },
  {
    id: 'R3',
    kind: 'regex',
    pattern: '^http://www\\.example-news\\.test/story\\?id=(\\d+)$',
    replacement: 'http://www.example-news.test/story_$1',
    note: 'story?id=N is story_N',
  },
  {
    id: 'R4',
    kind: 'regex',
    pattern: '^http://www\\.example-news\\.test/print/',
    replacement: 'http://www.example-news.test/',
    note: 'print version (same article, no navigation)',
  },
  { id: 'R5', kind: 'regex', pattern: '/index\\.html$', replacement: '/', note: 'dir/index.html is dir/' },
  {
    id: 'R6',
    kind: 'regex',
    pattern: '^http://mirror\\.example-docs\\.test/',
    replacement: 'http://docs.example.test/',
    note: 'mirror host; content is a near-replica (banner + per-request stamp)',
  },
] as const;

function applyRule(rule: (typeof DUST_RULES)[number], url: string): string {
  if (rule.kind === 'drop_params') {
    const u = new URL(url);
    for (const p of rule.params) u.searchParams.delete(p);
    return u.href;
  }
  return url.replace(new RegExp(rule.pattern), rule.replacement);
}

export function canonicalize(url: string): { canonical: string; rules: string[] } {
  let cur = url;
  const rules: string[] = [];
  for (const rule of DUST_RULES) {
    const next = applyRule(rule, cur);
    if (next !== cur) rules.push(rule.id);
    cur = next;
  }
  return { canonical: cur, rules };
}

export interface TruthInput {
  seed: number;
  /** Debian packages the page text comes from. */
  sources: Array<{ package: string; version: string; license: string }>;
  file: string;
  items: CrawlItem[];
  relations: Relation[];
  notDup: NotDupPair[];
  pages: Array<Record<string, unknown>>;
  records: Record<string, number>;
  revisit: { url: string; id: string; date: string; refersTo: string; refersToDate: string; digest: string };
}

export function buildTruth({
  seed,
  sources,
  file,
  items,
  relations,
  notDup,
  pages,
  records,
  revisit,
}: TruthInput) {
  const byUrl = new Map(items.map((i) => [i.url, i]));
  const parent = new Map<string, string>();
  const find = (u: string): string => {
    let r = u;
    while (parent.has(r)) r = parent.get(r) ?? r;
    return r;
  };
  for (const r of relations) {
    if (!byUrl.has(r.url) || !byUrl.has(r.of))
      throw new Error(`relation to uncrawled url ${r.url} / ${r.of}`);
    const a = find(r.url);
    const b = find(r.of);
    if (a !== b) parent.set(a, b);
  }
  const comps = new Map<string, string[]>();
  for (const r of relations)
    for (const u of [r.url, r.of]) comps.set(find(u), [...(comps.get(find(u)) ?? [])]);
  for (const item of items) if (comps.has(find(item.url))) comps.get(find(item.url))?.push(item.url);

  const text = (u: string): string => {
    const m = byUrl.get(u)?.model;
    return m ? visibleText(m) : '';
  };
  const main = (u: string): string => {
    const m = byUrl.get(u)?.model;
    return m ? mainText(m) : '';
  };
  const sim = (a: string, b: string) => ({
    jaccard_w5_full: jaccard(shingles(text(a)), shingles(text(b))),
    jaccard_w5_main: jaccard(shingles(main(a)), shingles(main(b))),
  });
  const rank = { 'identical-bytes': 0, 'identical-text': 1, 'near-replica': 2 } as const;
  type Equivalence = keyof typeof rank;
  const groups = [...comps.values()].map((urls, i) => {
    const id = `g${String(i + 1).padStart(3, '0')}`;
    const rep = urls[0];
    const repItem = byUrl.get(rep);
    let equivalence = 'identical-bytes' as Equivalence;
    const memberInfo = urls.slice(1).map((u) => {
      const item = byUrl.get(u);
      let relation: Equivalence = 'near-replica';
      if (item && repItem && item.body.equals(repItem.body)) relation = 'identical-bytes';
      else if (text(u) === text(rep)) relation = 'identical-text';
      if (rank[relation] > rank[equivalence]) equivalence = relation;
      return { url: u, kind: item?.kind, relation, ...sim(u, rep) };
    });
    for (const p of pages) if (urls.includes(String(p.url))) p.group = id;
    return { id, equivalence, representative: rep, urls, members: memberInfo };
  });
  for (const g of groups) {
    if (
      g.urls.some((u) => u.startsWith(MIRROR)) &&
      g.members.some((m) => m.relation === 'identical-bytes' && m.url.startsWith(MIRROR))
    ) {
      throw new Error('mirror page byte-identical to original');
    }
  }

  const dust = DUST_RULES.map((r) => ({
    ...r,
    instances: pages.filter((p) => (p.dust_rules as string[]).includes(r.id)).length,
  }));
  const kinds: Record<string, number> = {};
  const hosts: Record<string, number> = {};
  for (const i of items) {
    kinds[i.kind] = (kinds[i.kind] ?? 0) + 1;
    const h = new URL(i.url).host;
    hosts[h] = (hosts[h] ?? 0) + 1;
  }
  const html200 = items.filter((i) => i.status === 200 && i.contentType.startsWith('text/html'));
  const grouped = html200.filter((i) => groups.some((g) => g.urls.includes(i.url))).length;
  const notDupPairs = notDup.map((p) => {
    const s = sim(p.a, p.b);
    if (s.jaccard_w5_main > 0.2) throw new Error(`not-duplicate pair too similar: ${p.a} ${p.b}`);
    return [p.a, p.b, p.kind];
  });
  return {
    generator: 'scripts/make-sample.ts',
    seed,
    file,
    text_sources: sources,
    hosts: { news: NEWS, docs: DOCS, mirror: MIRROR, zh: ZH },
    similarity_note:
      'jaccard_w5_* = Jaccard resemblance of 5-token shingles; tokens are lowercase [a-z0-9]+ runs and single CJK ' +
      'ideographs; "full" = all visible body text (title element and scripts excluded), "main" = heading + byline + paragraphs.',
    records,
    pages,
    revisits: [
      {
        url: revisit.url,
        record_id: revisit.id,
        date: revisit.date,
        refers_to: revisit.refersTo,
        refers_to_date: revisit.refersToDate,
        payload_digest: revisit.digest,
      },
    ],
    duplicate_groups: groups,
    not_duplicate_pairs: notDupPairs,
    dust_rules: dust,
    counts: {
      responses: items.length,
      html_200: html200.length,
      html_200_in_groups: grouped,
      html_200_distinct: html200.length - grouped + groups.length,
      duplicate_groups: groups.length,
      groups_by_equivalence: {
        'identical-bytes': groups.filter((g) => g.equivalence === 'identical-bytes').length,
        'identical-text': groups.filter((g) => g.equivalence === 'identical-text').length,
        'near-replica': groups.filter((g) => g.equivalence === 'near-replica').length,
      },
      dust_instances: pages.filter((p) => (p.dust_rules as string[]).length > 0).length,
      by_kind: kinds,
      by_host: hosts,
    },
  };
}

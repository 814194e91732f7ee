import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDS } from '../../../src/core/candidates/methods';
import {
  CLUSTER_CSV_COLUMNS,
  clusterRows,
  clustersCsv,
  clustersJson,
  type ClusterExportInput,
} from '../../../src/core/clusters/export';
import { parseDelimited } from '../../../src/core/csv';
import { captureKey, type Capture } from '../../../src/core/clusters/kept';

const urls = [
  'http://h.test/a,b.html',
  'http://h.test/say "hi"',
  'http://h.test/line\nbreak',
  'http://h.test/plain',
  'http://h.test/plain?utm_source=x',
];
const capture =
  (mined: boolean) =>
  (i: number): Capture => {
    const canonicalUrl = mined ? urls[i].replace('?utm_source=x', '') : urls[i];
    return {
      id: i,
      url: urls[i],
      status: 200,
      fetchedAt: '',
      isCanonical: canonicalUrl === urls[i],
      canonicalUrl,
      textLength: 100,
    };
  };
// Cluster 1 keeps its shortest URL, first in code point order (every key ties), cluster 2 the member
// the alias canonicalises to.
const c1 = captureKey(urls[0], '');
const c2 = captureKey(urls[3], '');
const input = (mined: boolean): ClusterExportInput => ({
  capture: capture(mined),
  clusters: [
    { members: [0, 1, 2], centre: 1 },
    { members: [3, 4], centre: -1 },
  ],
  url: (i) => urls[i],
  canonical: mined ? (i) => urls[i].replace('?utm_source=x', '') : null,
  method: 'minhash',
  mode: 'star',
  thresholds: DEFAULT_THRESHOLDS,
});

describe('cluster export', () => {
  it('CSV: URLs with commas, quotes and line breaks round-trip through the project reader', () => {
    const back = parseDelimited(clustersCsv(input(true)));
    expect(back).toEqual(clusterRows(input(true)));
    expect(back[0]).toEqual([...CLUSTER_CSV_COLUMNS]);
    expect(back.slice(1).map((r) => r[1])).toEqual(urls);
    expect(back[5]).toEqual([
      c2,
      urls[4],
      'test,h)/plain?utm_source=x',
      'http://h.test/plain',
      'test,h)/plain',
      '0',
      '',
      '',
      '0',
      '0',
      'minhash',
      'jaccard=0.8',
      'star',
    ]);
    expect(back[4].slice(5, 10)).toEqual(['1', 'kept: canonical URL', '', '0', '0']);
    // Cluster 1's star centre is not the copy kept: marked as such.
    expect(back.slice(1, 4).map((r) => r.slice(5, 10))).toEqual([
      ['1', 'kept: first by URL', '', '0', '0'],
      ['0', '', '', '0', '1'],
      ['0', '', '', '0', '0'],
    ]);
  });

  it('CSV: URLs that begin like formulas are written neutralised and read back with restore', () => {
    const hostile = ['=HYPERLINK("http://evil.test/","x")', "+cmd|' /C calc'!A0", '-1+2', '@SUM(1)'];
    const x: ClusterExportInput = {
      ...input(true),
      clusters: [{ members: [0, 1, 2, 3], centre: 0 }],
      url: (i) => hostile[i],
      canonical: (i) => `${hostile[i]}/`,
    };
    const text = clustersCsv(x);
    const cells = parseDelimited(text).flat();
    expect(cells.filter((c) => /^[=+\-@\t\r]/.test(c))).toEqual([]);
    expect(cells).toContain("'+cmd|' /C calc'!A0");
    expect(parseDelimited(text, { restore: true })).toEqual(clusterRows(x));
  });

  it('canonical_url is empty when DUST rules have not been mined, and the JSON says why', () => {
    const rows = clusterRows(input(false));
    const col = (name: string) => CLUSTER_CSV_COLUMNS.indexOf(name as (typeof CLUSTER_CSV_COLUMNS)[number]);
    expect(
      rows.slice(1).every((r) => r[col('canonical_url')] === '' && r[col('canonical_surt')] === ''),
    ).toBe(true);
    expect(rows.slice(1).every((r) => r[col('surt')].startsWith('test,h)/'))).toBe(true);
    const json = JSON.parse(clustersJson(input(false)));
    expect(json.canonical).toMatch(/not been mined/);
    expect(json.clusters[0]).toEqual({
      cluster: c1,
      size: 3,
      kept: urls[0],
      keptReason: 'kept: first by URL',
      starCentre: urls[1],
      members: [
        { url: urls[0], surt: 'test,h)/a,b.html' },
        { url: urls[1], surt: 'test,h)/say%20"hi"' },
        { url: urls[2], surt: 'test,h)/linebreak' }, // line breaks and tabs dropped, as the IA's canonicaliser does
      ],
    });
    expect(json.thresholds).toEqual({ jaccard: 0.8 });
    expect(JSON.parse(clustersJson(input(true))).clusters[1].members[1]).toEqual({
      url: urls[4],
      surt: 'test,h)/plain?utm_source=x',
      canonical: 'http://h.test/plain',
      canonicalSurt: 'test,h)/plain',
    });
  });
});

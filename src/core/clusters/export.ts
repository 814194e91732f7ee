import { surt } from '../url/surt';
import { formatDelimited } from '../csv';
import { METHOD_LABELS, type MethodId, type Thresholds } from '../candidates/methods';
import type { Cluster } from './clusters';
import type { ClusterMode } from './view';
import type { EngineParams } from '../candidates/engine-params';

/** The thresholds a method reads (the others do not change its clusters). */
export function methodThresholds(m: MethodId, t: Thresholds): Record<string, number | boolean> {
  switch (m) {
    case 'exact':
      return {};
    case 'rp-hm':
      return { C: t.C, D: t.D };
    case 'feature-code':
      return { a: t.a, fcLengthCheck: t.fcLengthCheck };
    case 'minhash':
      return { jaccard: t.jaccard };
    case 'simhash':
      return { hamming: t.hamming };
  }
}

/** The parameters clusters depend on: method, its thresholds, clustering and the signature engine's. */
export function clusterParameters(
  method: MethodId,
  t: Thresholds,
  mode: ClusterMode,
  engine: EngineParams,
): Record<string, unknown> {
  return { method, thresholds: methodThresholds(method, t), clustering: mode, engine };
}

export interface ClusterExportInput {
  clusters: readonly Cluster[];
  /** Page index → URL. */
  url: (i: number) => string;
  /** Page index → canonical URL from DUST canonisation; null when rules have not been mined. */
  canonical: ((i: number) => string) | null;
  method: MethodId;
  mode: ClusterMode;
  thresholds: Thresholds;
  /** Where the clusters come from (dataset, parameters, app version), written first in the JSON. */
  source?: Record<string, unknown>;
}

export const CLUSTER_CSV_COLUMNS = [
  'cluster',
  'url',
  'surt',
  'canonical_url',
  'canonical_surt',
  'centre',
  'method',
  'thresholds',
  'clustering',
] as const;

const thresholdText = (m: MethodId, t: Thresholds) =>
  Object.entries(methodThresholds(m, t))
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ');

/**
 * One row per member page, clusters numbered from 1 as the list shows them, each URL beside its SURT
 * key (url/surt.ts, the Internet Archive's conventions) for archivists' indexes. canonical_url is empty
 * when DUST rules have not been mined (the JSON says so in `canonical`): an empty cell, not the URL
 * itself, so a reader cannot take "not mined" for "already canonical".
 */
export function clusterRows(x: ClusterExportInput): string[][] {
  const rows: string[][] = [[...CLUSTER_CSV_COLUMNS]];
  const th = thresholdText(x.method, x.thresholds);
  x.clusters.forEach((c, n) => {
    for (const m of c.members) {
      const u = x.url(m);
      const canon = x.canonical ? x.canonical(m) : '';
      rows.push([
        String(n + 1),
        u,
        surt(u),
        canon,
        canon ? surt(canon) : '',
        m === c.centre ? '1' : '0',
        x.method,
        th,
        x.mode,
      ]);
    }
  });
  return rows;
}

export function clustersCsv(x: ClusterExportInput): string {
  return formatDelimited(clusterRows(x));
}

export function clustersJson(x: ClusterExportInput): string {
  return JSON.stringify(
    {
      ...(x.source ? { source: x.source } : {}),
      method: x.method,
      methodLabel: METHOD_LABELS[x.method],
      thresholds: methodThresholds(x.method, x.thresholds),
      clustering: x.mode,
      canonical: x.canonical
        ? 'canonical URLs from the mined DUST rules'
        : 'DUST rules have not been mined: no canonical URLs',
      clusters: x.clusters.map((c, n) => ({
        cluster: n + 1,
        size: c.members.length,
        centre: c.centre >= 0 ? x.url(c.centre) : null,
        members: c.members.map((m) => {
          const u = x.url(m);
          if (!x.canonical) return { url: u, surt: surt(u) };
          const canon = x.canonical(m);
          return { url: u, surt: surt(u), canonical: canon, canonicalSurt: surt(canon) };
        }),
      })),
    },
    null,
    2,
  );
}

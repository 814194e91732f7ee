import { surt } from '../url/surt';
import { formatDelimited } from '../csv';
import { METHOD_LABELS, type MethodId, type Thresholds } from '../candidates/methods';
import type { Cluster } from './clusters';
import type { ClusterMode } from './view';
import type { EngineParams } from '../candidates/engine-params';
import { decide, DEFAULT_KEEP, type Capture, type Decision, type KeepKey } from './kept';
import { LOSES_TEXT_DEFAULT, losesText, shareText } from './loses-text';

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
  /** Page index → what the kept-copy policy reads. */
  capture: (i: number) => Capture;
  /** The kept-copy policy (kept.ts); the default when absent. */
  keep?: readonly KeepKey[];
  /**
   * The share of a member's text its cluster's kept copy lacks (loses-text.ts lostShare of their
   * shingles); absent: not computed, and nothing is flagged.
   */
  lost?: (member: number, kept: number) => number;
  /** Above this share a removed member is flagged `loses-text` (LOSES_TEXT_DEFAULT). */
  losesText?: number;
  /** Whether a flagged member is removed all the same (default: it is kept, and said). */
  removeLosing?: boolean;
}

/** A member's share of text its kept copy lacks, and whether that flags it; undefined for the kept copy. */
export function memberLoss(
  x: ClusterExportInput,
  member: number,
  kept: number,
): { share: number; flagged: boolean } | undefined {
  if (member === kept || !x.lost) return undefined;
  const share = x.lost(member, kept);
  return { share, flagged: losesText(share, x.losesText ?? LOSES_TEXT_DEFAULT) };
}

/** Whether a member other than the kept copy is removed: a flagged one only when the policy says so. */
export function removed(x: ClusterExportInput, member: number, kept: number): boolean {
  if (member === kept) return false;
  return !!x.removeLosing || !memberLoss(x, member, kept)?.flagged;
}

/** Each cluster's decision (kept copy, name, reason), by the input's policy; null for an empty one. */
export function decisions(x: ClusterExportInput): (Decision | null)[] {
  return x.clusters.map((c) =>
    c.members.length ? decide(c.members, x.capture, x.keep ?? DEFAULT_KEEP) : null,
  );
}

export const CLUSTER_CSV_COLUMNS = [
  'cluster',
  'url',
  'surt',
  'canonical_url',
  'canonical_surt',
  'kept',
  'kept_reason',
  'lost_share',
  'loses_text',
  'star_centre',
  'method',
  'thresholds',
  'clustering',
] as const;

const thresholdText = (m: MethodId, t: Thresholds) =>
  Object.entries(methodThresholds(m, t))
    .map(([k, v]) => `${k}=${String(v)}`)
    .join(' ');

/**
 * One row per member page, each cluster named by its kept copy's capture key (kept.ts, the name every
 * export and the batch give it), each URL beside its SURT key (url/surt.ts, the Internet Archive's
 * conventions) for archivists' indexes; `kept` 1 on the copy kept with its reason, `star_centre` 1 on a
 * star's centre only where it is not the copy kept. canonical_url is empty when DUST rules have not been
 * mined (the JSON says so in `canonical`): an empty cell, not the URL itself, so a reader cannot take
 * "not mined" for "already canonical".
 */
export function clusterRows(x: ClusterExportInput): string[][] {
  const rows: string[][] = [[...CLUSTER_CSV_COLUMNS]];
  const th = thresholdText(x.method, x.thresholds);
  const ds = decisions(x);
  x.clusters.forEach((c, n) => {
    const d = ds[n];
    if (!d) return;
    for (const m of c.members) {
      const u = x.url(m);
      const canon = x.canonical ? x.canonical(m) : '';
      rows.push([
        d.cluster,
        u,
        surt(u),
        canon,
        canon ? surt(canon) : '',
        m === d.kept ? '1' : '0',
        m === d.kept ? d.reason : '',
        shareText(memberLoss(x, m, d.kept)?.share),
        memberLoss(x, m, d.kept)?.flagged ? '1' : '0',
        m === c.centre && m !== d.kept ? '1' : '0',
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
  const ds = decisions(x);
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
      keep: x.keep ?? DEFAULT_KEEP,
      clusters: x.clusters.flatMap((c, n) => {
        const d = ds[n];
        if (!d) return [];
        return [
          {
            cluster: d.cluster,
            size: c.members.length,
            kept: x.url(d.kept),
            keptReason: d.reason,
            // A star's centre only where it is not the copy kept.
            ...(c.centre >= 0 && c.centre !== d.kept ? { starCentre: x.url(c.centre) } : {}),
            members: c.members.map((m) => {
              const u = x.url(m);
              const loss = memberLoss(x, m, d.kept);
              const lost = loss ? { lostShare: loss.share, losesText: loss.flagged } : {};
              if (!x.canonical) return { url: u, surt: surt(u), ...lost };
              const canon = x.canonical(m);
              return { url: u, surt: surt(u), canonical: canon, canonicalSurt: surt(canon), ...lost };
            }),
          },
        ];
      }),
    },
    null,
    2,
  );
}

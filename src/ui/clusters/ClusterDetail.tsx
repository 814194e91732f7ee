import { useMemo, useState } from 'react';
import { transitiveOnlyPairs } from '../../core/clusters/clusters';
import { useAnalysis } from '../../state/analysis';
import { clusterView, findPair } from '../../state/clusters';
import { usePages } from '../../state/pages';
import { fmtInt } from '../format';
import { TextCompare } from '../TextCompare';
import { clusterKind, rulesExplaining } from '../../state/cross';
import { useDust } from '../../state/dust';
import { useLabels } from '../../state/labels';
import { ruleSpelling } from '../../core/dust';

/** The selected cluster: its members, which pairs only join through others, and two members side by side. */
export function ClusterDetail() {
  const s = useAnalysis();
  const dustRun = useDust((d) => d.run);
  const selectRule = useDust((d) => d.selectRule);
  const startWith = useLabels((l) => l.startWith);
  const pages = usePages((p) => p.pages);
  const datasetId = usePages((p) => p.datasetId);
  const bySeq = useMemo(() => new Map(pages.map((p) => [p.seq, p])), [pages]);
  const view = useMemo(
    () => (s.analysis ? clusterView(s.analysis, s.method, s.thresholds, s.mode) : null),
    [s.analysis, s.method, s.thresholds, s.mode],
  );
  const cluster = view && s.selectedCluster !== null ? view.clusters[s.selectedCluster] : undefined;
  // The compared pair belongs to one cluster; another cluster starts from its first two members.
  const [chosen, setChosen] = useState<{ of: unknown; pair: [number, number] } | null>(null);
  const pair: [number, number] | null = !cluster
    ? null
    : chosen && chosen.of === cluster
      ? chosen.pair
      : [cluster.members[0], cluster.members[1]];
  const setPair = (p: [number, number]) => setChosen({ of: cluster, pair: p });
  if (!s.analysis || !view || !cluster) return null;
  const a = s.analysis;
  const loose = s.mode === 'components' ? transitiveOnlyPairs(cluster, view.passes) : [];
  const memberUrls = cluster.members.map((m) => bySeq.get(a.seqs[m])?.url ?? '');
  const explaining = dustRun ? rulesExplaining(dustRun.rules, memberUrls) : [];
  const kind = clusterKind(
    cluster.members.map((m) => bySeq.get(a.seqs[m])?.host ?? ''),
    explaining.length > 0,
  );
  // The cluster's own candidate pairs, for the labelling queue.
  const inCluster = new Set(cluster.members);
  const clusterPairs: number[] = [];
  for (let k = 0; k < a.pairs.count && clusterPairs.length < 500; k++) {
    if (inCluster.has(a.pairs.a[k]) && inCluster.has(a.pairs.b[k])) clusterPairs.push(k);
  }
  const fpCount = new Map<string, number>();
  for (const m of cluster.members) {
    const f = bySeq.get(a.seqs[m])?.fingerprint ?? '';
    fpCount.set(f, (fpCount.get(f) ?? 0) + 1);
  }
  return (
    <section className="cluster-detail" aria-label="Cluster detail">
      <h2>
        Cluster of {cluster.members.length} pages{' '}
        <span className="badge">{fpCount.size === 1 ? 'exact replicas' : 'near replicas'}</span>
      </h2>
      <p className="meta" data-testid="cluster-kind">
        {kind === 'aliases'
          ? 'Pure URL aliases: one host, and DUST rules relate its URLs.'
          : kind === 'replicas'
            ? 'Content replicas across hosts: no DUST rule relates its URLs.'
            : dustRun
              ? 'Mixed: DUST rules explain part of it.'
              : 'Mine DUST rules to see which of its URLs are aliases.'}{' '}
        {explaining.length > 0 && (
          <>
            Rules:{' '}
            {explaining.slice(0, 5).map((r) => (
              <button key={r.id} type="button" className="link" onClick={() => selectRule(r.id)}>
                {ruleSpelling(r)}
              </button>
            ))}
          </>
        )}{' '}
        <button type="button" onClick={() => startWith(clusterPairs)}>
          Label this cluster's {clusterPairs.length} pairs
        </button>
      </p>
      {loose.length > 0 && (
        <p className="meta" data-testid="transitive-note">
          {fmtInt(loose.length)} of {fmtInt((cluster.members.length * (cluster.members.length - 1)) / 2)}{' '}
          pairs in this cluster do not collide themselves: they are joined only through other members
          (near-duplication is not transitive). Try star clusters.
        </p>
      )}
      <table className="members">
        <thead>
          <tr>
            <th>A</th>
            <th>B</th>
            <th>URL</th>
            <th>Host</th>
            <th>Title</th>
            <th>Kind</th>
          </tr>
        </thead>
        <tbody>
          {cluster.members.map((m) => {
            const p = bySeq.get(a.seqs[m]);
            // Exact: another member has the same text fingerprint.
            const exact = !!p?.fingerprint && (fpCount.get(p.fingerprint) ?? 0) > 1;
            return (
              <tr key={m} className={m === cluster.centre ? 'centre' : ''}>
                <td>
                  <input
                    type="radio"
                    name="cmp-a"
                    aria-label="compare as A"
                    checked={pair?.[0] === m}
                    onChange={() => setPair([m, pair?.[1] ?? m])}
                  />
                </td>
                <td>
                  <input
                    type="radio"
                    name="cmp-b"
                    aria-label="compare as B"
                    checked={pair?.[1] === m}
                    onChange={() => setPair([pair?.[0] ?? m, m])}
                  />
                </td>
                <td className="url">{p?.url}</td>
                <td>{p?.host}</td>
                <td>{p?.title}</td>
                <td>
                  <span className="badge">{exact ? 'exact' : 'near'}</span>
                  {m === cluster.centre && <span className="badge">centre</span>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {pair && datasetId !== null && pair[0] !== pair[1] && (
        <SideBySide
          datasetId={datasetId}
          seqA={a.seqs[pair[0]]}
          seqB={a.seqs[pair[1]]}
          pairIndex={findPair(a, pair[0], pair[1])}
        />
      )}
    </section>
  );
}

function SideBySide({
  datasetId,
  seqA,
  seqB,
  pairIndex,
}: {
  datasetId: number;
  seqA: number;
  seqB: number;
  pairIndex: number | null;
}) {
  const a = useAnalysis((s) => s.analysis)!;
  const p = a.pairs;
  const k = pairIndex;
  return (
    <div className="side-by-side">
      {k !== null && (
        <p className="meta pair-measures">
          ‖ΔR‖∞ {p.dR[k].toFixed(3)} · ‖ΔX‖∞ {p.dX[k].toFixed(3)} · cosine {p.cosine[k].toFixed(3)} · Jaccard{' '}
          {p.jaccard[k].toFixed(3)} (MinHash {p.jaccardEst[k].toFixed(3)}) · feature code{' '}
          {p.fcMatch[k] === 2 ? 'none' : p.fcMatch[k] ? 'match' : 'differ'} · length ratio{' '}
          {p.lengthRatio[k].toFixed(3)} · SimHash {p.simhash[k]} bits
        </p>
      )}
      <TextCompare datasetId={datasetId} seqA={seqA} seqB={seqB} />
    </div>
  );
}

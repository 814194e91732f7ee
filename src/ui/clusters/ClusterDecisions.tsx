import { useMemo, useState } from 'react';
import type { Cluster } from '../../core/clusters/clusters';
import type { MemberPair } from '../../core/clusters/inspect';
import { pairKey } from '../../core/eval/pair-key';
import type { StoredAnalysis } from '../../db/schema';
import { clusterId } from '../../state/clusters';
import { useOverrides } from '../../state/overrides';
import { escapeBidi, fmtWhen } from '../format';

/** Clusters offered in the merge list at most (largest first, or matching the text typed). */
const MERGE_LIST = 200;

const KIND_WORDS = { must: 'the same page', cannot: 'not duplicates' } as const;

/**
 * The analyst's decisions on the open cluster (core/clusters/overrides.ts): the compared pair A, B marked
 * not duplicates (a cannot-link: the cluster splits between them) or the same page (a must-link); the
 * cluster split at its weakest link; merged with another cluster. Each is stored with the dataset, listed
 * in the Decisions pane, undoable there (z) and carried into the exported profile by URL.
 */
export function ClusterDecisions({
  analysis,
  cluster,
  clusters,
  pair,
  weakest,
  urlOf,
}: {
  analysis: StoredAnalysis;
  cluster: Cluster;
  /** The view's clusters, largest first: those this one can be merged with. */
  clusters: readonly Cluster[];
  pair: [number, number];
  weakest: MemberPair | null;
  urlOf: (i: number) => string;
}) {
  const rows = useOverrides((s) => s.rows);
  const decide = useOverrides((s) => s.decide);
  const remove = useOverrides((s) => s.remove);
  const [target, setTarget] = useState('');
  const [find, setFind] = useState('');
  const seq = (i: number) => analysis.seqs[i];
  const mark = (kind: 'must' | 'cannot', x: number, y: number, how: 'pair' | 'split' | 'merge') =>
    decide([{ a: seq(x), b: seq(y), kind, urlA: urlOf(x), urlB: urlOf(y), how }]);
  const current = rows.get(pairKey(seq(pair[0]), seq(pair[1])));
  const named = (c: Cluster) => (c.centre >= 0 ? c.centre : c.members[0]);
  // The largest clusters, or those with a member whose URL holds the text typed: at most MERGE_LIST.
  const others = useMemo(() => {
    const text = find.trim().toLowerCase();
    const out: Cluster[] = [];
    for (const c of clusters) {
      if (out.length >= MERGE_LIST) break;
      if (c === cluster) continue;
      if (text === '' || c.members.some((m) => urlOf(m).toLowerCase().includes(text))) out.push(c);
    }
    return out;
  }, [clusters, cluster, find, urlOf]);
  return (
    <div className="cluster-decisions" data-testid="cluster-decisions">
      <span className="meta">A and B:</span>
      <button type="button" onClick={() => void mark('cannot', pair[0], pair[1], 'pair')}>
        Not duplicates
      </button>
      <button type="button" onClick={() => void mark('must', pair[0], pair[1], 'pair')}>
        The same page
      </button>
      {current && (
        <span className="meta" data-testid="pair-decision">
          marked {KIND_WORDS[current.kind]} {fmtWhen(current.at)}{' '}
          <button type="button" className="link" onClick={() => void remove([[current.a, current.b]])}>
            take back
          </button>
        </span>
      )}
      <span className="decisions-gap" />
      {weakest && (
        <button
          type="button"
          title={`Marks the weakest link not duplicates (Jaccard ${weakest.jaccard.toFixed(3)}): ${escapeBidi(urlOf(weakest.i))} — ${escapeBidi(urlOf(weakest.j))}`}
          onClick={() => void mark('cannot', weakest.i, weakest.j, 'split')}
        >
          Split at its weakest link
        </button>
      )}
      {clusters.length > 1 && (
        <>
          <input
            type="search"
            aria-label="Find a cluster to merge with by URL"
            placeholder="find a cluster by URL"
            value={find}
            onChange={(e) => {
              setFind(e.target.value);
              setTarget('');
            }}
          />
          <select aria-label="Merge with cluster" value={target} onChange={(e) => setTarget(e.target.value)}>
            <option value="">
              {others.length === 0
                ? 'no cluster has such a URL'
                : `merge with cluster… (${others.length < MERGE_LIST ? others.length : `first ${MERGE_LIST}`})`}
            </option>
            {others.map((c) => (
              <option key={clusterId(analysis, c)} value={String(clusterId(analysis, c))}>
                {c.members.length} pages · {escapeBidi(urlOf(named(c)))}
              </option>
            ))}
          </select>
          <button
            type="button"
            disabled={target === ''}
            onClick={() => {
              const other = others.find((c) => String(clusterId(analysis, c)) === target);
              if (other) void mark('must', named(cluster), named(other), 'merge');
              setTarget('');
            }}
          >
            Merge
          </button>
        </>
      )}
    </div>
  );
}

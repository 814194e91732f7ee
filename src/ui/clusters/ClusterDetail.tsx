import { useCallback, useEffect, useMemo, useState } from 'react';
import { losesText as flags } from '../../core/clusters/loses-text';
import { lostOf } from '../../state/losses';
import type { MemberPair } from '../../core/clusters/inspect';
import { CHAIN_FLOOR } from '../../core/clusters/view';
import { useAnalysis } from '../../state/analysis';
import { useLinks } from '../../state/overrides';
import { capturesOf, clusterInspection, clusterListing, shownClusters, findPair } from '../../state/clusters';
import { clusterKind, rulesExplaining, type ClusterKindVerdict } from '../../core/dust/cluster-kind';
import { useDust } from '../../state/dust';
import { useLabels } from '../../state/labels';
import { usePages } from '../../state/pages';
import { pageBySeq, pageCapture } from '../../state/selectors';
import { decide } from '../../core/clusters/kept';
import { ruleSpelling } from '../../core/dust';
import { escapeBidi, fmtInt, plural } from '../format';
import { TextCompare } from '../TextCompare';
import { Url } from '../Url';
import { distinguishing } from '../../core/url/distinguish';
import { ClusterGraph } from './ClusterGraph';
import { ClusterDecisions } from './ClusterDecisions';
import { EvidenceCard } from './EvidenceCard';

/**
 * The selected cluster: what holds it together (its strongest pair, its weakest link, whether it is
 * chained), its graph, its members, and two members side by side — first the most similar pair.
 */
export function ClusterDetail() {
  const analysis = useAnalysis((s) => s.analysis);
  const method = useAnalysis((s) => s.method);
  const thresholds = useAnalysis((s) => s.thresholds);
  const mode = useAnalysis((s) => s.mode);
  const selected = useAnalysis((s) => s.selectedClusterId);
  const keep = useAnalysis((s) => s.keep);
  const losesText = useAnalysis((s) => s.losesText);
  const dustRun = useDust((d) => d.run);
  const canonical = useDust((d) => d.canonical);
  const selectRule = useDust((d) => d.selectRule);
  const startWith = useLabels((l) => l.startWith);
  const pages = usePages((p) => p.pages);
  const datasetId = usePages((p) => p.datasetId);
  const rankOf = usePages((p) => p.rankOf);
  const bySeq = pageBySeq(pages);
  const links = useLinks(analysis);
  const view = useMemo(
    () => (analysis ? shownClusters(analysis, method, thresholds, mode, links) : null),
    [analysis, method, thresholds, mode, links],
  );
  // The cluster holding the page the selection names (its id), wherever the list put it.
  const cluster =
    analysis && view && selected !== null
      ? view.clusters[clusterListing(analysis, view).rowOf(selected)]
      : undefined;
  // The cluster's pair index and verdict: built once per cluster (memoised in state), never per render.
  const inspection = useMemo(
    () => (analysis && view && cluster ? clusterInspection(analysis, view, cluster) : null),
    [analysis, view, cluster],
  );
  const page = useCallback(
    (i: number) => (analysis ? bySeq.get(analysis.seqs[i]) : undefined),
    [analysis, bySeq],
  );
  const urlOf = useCallback((i: number) => page(i)?.url ?? '', [page]);
  // The members' URLs shown by what tells them apart (the origin once when they share it).
  const urlsShown = useMemo(
    () => distinguishing(cluster ? cluster.members.map(urlOf) : []),
    [cluster, urlOf],
  );
  // The copy kept and why, by the policy every export and the batch apply (core/clusters/kept.ts).
  const decision = useMemo(
    () =>
      analysis && cluster && cluster.members.length
        ? decide(
            cluster.members,
            (i) => pageCapture(page(i), analysis.seqs[i], dustRun ? canonical : null),
            keep,
          )
        : null,
    [analysis, cluster, page, dustRun, canonical, keep],
  );
  const kind = useMemo(() => {
    if (!cluster) return null;
    const urls = cluster.members.map(urlOf);
    const hosts = cluster.members.map((m) => page(m)?.host ?? '');
    return {
      verdict: clusterKind(urls, hosts, dustRun ? dustRun.rules : null),
      rules: dustRun ? rulesExplaining(dustRun.rules, urls) : [],
    };
  }, [cluster, dustRun, urlOf, page]);
  const fpCount = useMemo(() => {
    const m = new Map<string, number>();
    for (const i of cluster?.members ?? []) {
      const f = page(i)?.fingerprint ?? '';
      m.set(f, (m.get(f) ?? 0) + 1);
    }
    return m;
  }, [cluster, page]);
  // Re-fetches of a member's URL (one page with N captures, captures.ts).
  const captures = useMemo(() => (analysis ? capturesOf(analysis) : null), [analysis]);
  const captureCount = useMemo(
    () => (cluster && captures ? cluster.members.reduce((n, m) => n + (captures.get(m)?.length ?? 1), 0) : 0),
    [cluster, captures],
  );
  // The compared pair belongs to one cluster; a newly opened cluster starts on its most similar pair.
  const [chosen, setChosen] = useState<{ of: unknown; pair: [number, number] } | null>(null);
  // Each member's share of text the kept copy lacks (read from IndexedDB for the shown cluster).
  const [lost, setLost] = useState<{ of: unknown; share: Map<number, number> } | null>(null);
  useEffect(() => {
    if (!analysis || !cluster || !decision) return;
    let live = true;
    lostOf(analysis, [cluster], bySeq, pages).then(
      (f) => {
        if (!live) return;
        const share = new Map<number, number>();
        for (const m of cluster.members) if (m !== decision.kept) share.set(m, f(m, decision.kept));
        setLost({ of: decision, share });
      },
      () => live && setLost(null),
    );
    return () => {
      live = false;
    };
  }, [analysis, cluster, decision, bySeq, pages]);
  if (!analysis || !view || !cluster || !inspection || !kind || !captures || !decision) return null;
  const strongest: [number, number] = inspection.strongest
    ? [inspection.strongest.i, inspection.strongest.j]
    : [cluster.members[0], cluster.members[1]];
  const pair = chosen && chosen.of === cluster ? chosen.pair : strongest;
  const setPair = (p: [number, number]) => setChosen({ of: cluster, pair: p });
  const pairButton = (mp: MemberPair | null, what: string) =>
    mp && (
      <button type="button" className="link" onClick={() => setPair([mp.i, mp.j])}>
        {what}: Jaccard {mp.bound ? '≥ ' : ''}
        {mp.jaccard.toFixed(3)}
      </button>
    );
  return (
    <section className="cluster-detail" aria-label="Cluster detail" id="cluster-detail" tabIndex={-1}>
      <h2>
        Cluster{' '}
        <span
          className="mono"
          data-testid="cluster-id"
          title="Its name in every export and in the batch: the kept copy's URL and capture time hashed"
        >
          {decision.cluster}
        </span>{' '}
        of {plural(cluster.members.length, 'page')}
        {captureCount > cluster.members.length && (
          <span className="meta" data-testid="cluster-captures">
            {' '}
            · {fmtInt(captureCount)} captures
          </span>
        )}{' '}
        <span className="badge">{fpCount.size === 1 ? 'exact replicas' : 'near replicas'}</span>
        {inspection.chained && (
          <span className="badge bad" data-testid="cluster-chained">
            chained
          </span>
        )}
      </h2>
      <p className="meta" data-testid="cluster-links">
        {pairButton(inspection.strongest, 'Most similar pair')}
        {inspection.weakestEdge && ' · '}
        {pairButton(inspection.weakestEdge, 'weakest link (accepted pair)')}
        {inspection.weakestPair && ' · '}
        {pairButton(inspection.weakestPair, 'least similar members')}
      </p>
      {inspection.chained ? (
        <p className="meta warn" data-testid="transitive-note">
          Chained: {fmtInt(inspection.gapCount)} of {fmtInt(inspection.memberPairs)} member pairs are not
          accepted and not shown to be alike (exact Jaccard, or its bound through a shared member, below{' '}
          {CHAIN_FLOOR}): they are in this cluster only through other members — near-duplication is not
          transitive.{mode === 'components' ? ' Star clusters or the chain guard keep them apart.' : ''}
        </p>
      ) : (
        <p className="meta" data-testid="transitive-note">
          Not chained: every member pair is accepted or has exact Jaccard ≥ {CHAIN_FLOOR}
          {inspection.checkedMembers < cluster.members.length
            ? ` (checked among the first ${fmtInt(inspection.checkedMembers)} members)`
            : ''}
          .
        </p>
      )}
      <p className="meta" data-testid="cluster-kind">
        <KindText v={kind.verdict} mined={!!dustRun} />{' '}
        {kind.rules.length > 0 && (
          <>
            Rules:{' '}
            {kind.rules.slice(0, 5).map((r) => (
              <button key={r.id} type="button" className="link" onClick={() => selectRule(r.id)}>
                {escapeBidi(ruleSpelling(r))}
              </button>
            ))}
          </>
        )}{' '}
        <button type="button" onClick={() => startWith(inspection.pairs.slice(0, 500))}>
          Label this cluster's {plural(Math.min(500, inspection.pairs.length), 'pair')}
        </button>
      </p>
      <ClusterGraph
        analysis={analysis}
        cluster={cluster}
        inspection={inspection}
        urlOf={urlOf}
        onPair={(i, j) => setPair([i, j])}
      />
      {urlsShown.shared && (
        <p className="meta" data-testid="members-origin">
          Every member is on {escapeBidi(urlsShown.shared)}: its URL below starts after it.
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
            <th>Captures</th>
            <th>Kind</th>
          </tr>
        </thead>
        <tbody>
          {cluster.members.map((m, k) => {
            const p = page(m);
            // Exact: another member has the same text fingerprint.
            const exact = !!p?.fingerprint && (fpCount.get(p.fingerprint) ?? 0) > 1;
            return (
              <tr key={m} className={m === decision.kept ? 'centre' : ''}>
                {(['A', 'B'] as const).map((side, s) => (
                  <td key={side}>
                    <input
                      type="radio"
                      name={`cmp-${side.toLowerCase()}`}
                      aria-label={`compare as ${side}`}
                      checked={pair[s] === m}
                      onChange={() => setPair(s === 0 ? [m, pair[1]] : [pair[0], m])}
                    />
                  </td>
                ))}
                <td>
                  <Url url={p?.url} shown={urlsShown.shown[k]} expandable />
                </td>
                <td>{p?.host}</td>
                <td>{p && escapeBidi(p.title)}</td>
                <td>
                  <CaptureList seqs={captures.get(m)} pageOf={(seq) => bySeq.get(seq)} rankOf={rankOf} />
                </td>
                <td>
                  <span className="badge">{exact ? 'exact' : 'near'}</span>
                  {m === decision.kept && (
                    <span className="badge" data-testid="kept-badge" title={decision.reason}>
                      {decision.reason}
                    </span>
                  )}
                  {m === cluster.centre && m !== decision.kept && <span className="badge">star centre</span>}
                  {lost?.of === decision && flags(lost.share.get(m) ?? 0, losesText) && (
                    <span
                      className="badge warn"
                      data-testid="loses-text"
                      title="Share of its word shingles that are not in the kept copy: removing it would lose that text"
                    >
                      loses {Math.round((lost.share.get(m) ?? 0) * 100)}% of its text
                    </span>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {pair[0] !== pair[1] && (
        <ClusterDecisions
          analysis={analysis}
          cluster={cluster}
          clusters={view.clusters}
          pair={pair}
          weakest={inspection.weakestEdge}
          urlOf={urlOf}
        />
      )}
      {datasetId !== null && pair[0] !== pair[1] && (
        <SideBySide
          datasetId={datasetId}
          seqA={analysis.seqs[pair[0]]}
          seqB={analysis.seqs[pair[1]]}
          pairIndex={findPair(analysis, pair[0], pair[1])}
        />
      )}
    </section>
  );
}

/** A member's captures: "1", or how many with each one's record number and fetch time. */
function CaptureList({
  seqs,
  pageOf,
  rankOf,
}: {
  seqs: number[] | undefined;
  rankOf: ReadonlyMap<number, number>;
  pageOf: (seq: number) => { seq: number; fetchedAt: string; status: number } | undefined;
}) {
  if (!seqs) return <>1</>;
  return (
    <details className="captures" data-testid="capture-list">
      <summary>{fmtInt(seqs.length)} captures</summary>
      <ul>
        {seqs.map((seq, k) => {
          const c = pageOf(seq);
          return (
            <li key={seq}>
              #{fmtInt(rankOf.get(seq) ?? seq)}
              {c?.fetchedAt ? ` · ${c.fetchedAt}` : ''}
              {c && c.status > 0 ? ` · ${c.status}` : ''}
              {k === 0 ? ' · compared' : ''}
            </li>
          );
        })}
      </ul>
    </details>
  );
}

function KindText({ v, mined }: { v: ClusterKindVerdict; mined: boolean }) {
  if (!mined || v.kind === 'not-mined')
    return <>DUST rules have not been mined: whether these URLs are aliases of one page is not known yet.</>;
  if (v.kind === 'aliases') return <>URL aliases: mined DUST rules relate all its URLs to each other.</>;
  if (v.kind === 'partly-aliases')
    return (
      <>
        Partly URL aliases: mined rules relate {v.related} of its URLs (in {plural(v.groups, 'group')}); the
        others are content replicas.
      </>
    );
  return <>Content replicas{v.oneHost ? '' : ' across hosts'}: no mined DUST rule relates its URLs.</>;
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
      {k !== null ? (
        <p className="meta pair-measures">
          Jaccard {p.jaccard[k].toFixed(3)} (MinHash {p.jaccardEst[k].toFixed(3)}) · ‖ΔR‖∞{' '}
          {p.dR[k].toFixed(3)} · ‖ΔX‖∞ {p.dX[k].toFixed(3)} · cosine {p.cosine[k].toFixed(3)} · feature code{' '}
          {p.fcMatch[k] === 2 ? 'none' : p.fcMatch[k] ? 'match' : 'differ'} · length ratio{' '}
          {p.lengthRatio[k].toFixed(3)} · SimHash {p.simhash[k]} bits
        </p>
      ) : (
        <p className="meta pair-measures">
          No candidate generator proposed this pair: it has no stored measures.
        </p>
      )}
      <EvidenceCard datasetId={datasetId} seqA={seqA} seqB={seqB} pairIndex={k} />
      <TextCompare datasetId={datasetId} seqA={seqA} seqB={seqB} />
    </div>
  );
}

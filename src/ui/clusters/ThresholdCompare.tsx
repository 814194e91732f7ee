import { useEffect, useMemo, useRef, useState } from 'react';
import type { Thresholds } from '../../core/candidates/methods';
import type { Cluster } from '../../core/clusters/clusters';
import { compareViews } from '../../core/clusters/compare-views';
import { decide } from '../../core/clusters/kept';
import { clusterView } from '../../core/clusters/view';
import { pairShown } from '../../core/url/distinguish';
import { useAnalysis } from '../../state/analysis';
import { clusterId, shownClusters } from '../../state/clusters';
import { useDust } from '../../state/dust';
import { labelEstimates } from '../../state/label-estimates';
import { useLabels } from '../../state/labels';
import { useLinks } from '../../state/overrides';
import { usePages } from '../../state/pages';
import { pageBySeq, pageCapture } from '../../state/selectors';
import { drawLshCurve } from '../charts/lsh-curve';
import { fmtInt, plural } from '../format';
import { fmtEstimate } from '../labels/LabelEstimatesLine';
import { methodSetting } from '../method-name';
import { Url } from '../Url';

/** Examples listed per kind of change. */
const SHOWN = 8;

/**
 * What a threshold move changes: pin the current thresholds (A), move a slider (B), and see the pairs
 * gained and lost, the clusters merged and split, the pages whose kept copy changes (each with examples
 * that open their cluster), the precision and recall estimated from the hand labels at both, and for
 * MinHash the LSH S-curve of the stored bands with both thresholds marked.
 */
export function ThresholdCompare() {
  const analysis = useAnalysis((s) => s.analysis);
  const method = useAnalysis((s) => s.method);
  const t = useAnalysis((s) => s.thresholds);
  const mode = useAnalysis((s) => s.mode);
  const keep = useAnalysis((s) => s.keep);
  const selectCluster = useAnalysis((s) => s.selectCluster);
  const links = useLinks(analysis);
  const labels = useLabels((s) => s.labels);
  const pages = usePages((s) => s.pages);
  const dustRun = useDust((s) => s.run);
  const canonical = useDust((s) => s.canonical);
  const [pinned, setPinned] = useState<{ of: unknown; t: Thresholds; method: string } | null>(null);
  const svg = useRef<SVGSVGElement>(null);
  const bySeq = useMemo(() => pageBySeq(pages), [pages]);
  const active = pinned && pinned.of === analysis && pinned.method === method ? pinned : null;
  // The pinned view A is built once per pin, not on every move of B; each cluster's kept copy is decided
  // once per cluster object (a slider move re-clusters B only).
  const pinnedView = useMemo(
    () => (analysis && active ? clusterView(analysis, method, active.t, mode, undefined, links) : null),
    [analysis, active, method, mode, links],
  );
  const keptOf = useMemo(() => {
    if (!analysis) return null;
    const cache = new WeakMap<Cluster, number>();
    return (c: Cluster) => {
      let k = cache.get(c);
      if (k === undefined) {
        const capture = (i: number) =>
          pageCapture(bySeq.get(analysis.seqs[i]), analysis.seqs[i], dustRun ? canonical : null);
        cache.set(c, (k = decide(c.members, capture, keep).kept));
      }
      return k;
    };
  }, [analysis, bySeq, dustRun, canonical, keep]);
  const change = useMemo(() => {
    if (!analysis || !pinnedView || !keptOf) return null;
    const b = shownClusters(analysis, method, t, mode, links);
    return { b, d: compareViews(analysis.n, pinnedView, b, keptOf) };
  }, [analysis, pinnedView, keptOf, method, t, mode, links]);
  const bands = analysis?.bands;
  useEffect(() => {
    if (!svg.current || !bands || !active || method !== 'minhash') return;
    drawLshCurve(
      svg.current,
      bands,
      [
        { label: 'A', at: active.t.jaccard },
        { label: 'B', at: t.jaccard },
      ],
      { width: 300, height: 110 },
    );
  }, [bands, active, method, t]);
  if (!analysis) return null;
  if (!active)
    return (
      <p className="meta threshold-compare">
        <button type="button" onClick={() => setPinned({ of: analysis, t, method })}>
          Compare thresholds…
        </button>{' '}
        pins these thresholds as A; move a slider to B to see which pairs and clusters the move gains or
        loses.
      </p>
    );
  const urlOf = (i: number) => bySeq.get(analysis.seqs[i])?.url ?? '';
  const open = (c: Cluster | undefined) => c && selectCluster(clusterId(analysis, c));
  const inB = (page: number) => change?.b.clusters.find((c) => c.members.includes(page));
  const estA = labels.size > 0 ? labelEstimates(analysis, labels, method, active.t) : null;
  const estB = labels.size > 0 ? labelEstimates(analysis, labels, method, t) : null;
  const d = change?.d;
  const pairList = (ks: number[], testId: string) => (
    <ul className="compare-list" data-testid={testId}>
      {ks.slice(0, SHOWN).map((k) => {
        const [x, y] = [analysis.pairs.a[k], analysis.pairs.b[k]];
        const [sx, sy] = pairShown(urlOf(x), urlOf(y));
        return (
          <li key={k}>
            <button type="button" className="link" onClick={() => open(inB(x) ?? inB(y))}>
              J {analysis.pairs.jaccard[k].toFixed(3)}
            </button>{' '}
            <Url url={urlOf(x)} shown={sx} /> — <Url url={urlOf(y)} shown={sy} />
          </li>
        );
      })}
      {ks.length > SHOWN && <li className="meta">… and {fmtInt(ks.length - SHOWN)} more</li>}
    </ul>
  );
  const clusterList = (cs: Cluster[], testId: string, inView: (c: Cluster) => Cluster | undefined) => (
    <ul className="compare-list" data-testid={testId}>
      {cs.slice(0, SHOWN).map((c) => (
        <li key={c.members.join(',')}>
          <button type="button" className="link" onClick={() => open(inView(c))}>
            {plural(c.members.length, 'page')}
          </button>{' '}
          <Url url={urlOf(c.centre >= 0 ? c.centre : c.members[0])} />
        </li>
      ))}
      {cs.length > SHOWN && <li className="meta">… and {fmtInt(cs.length - SHOWN)} more</li>}
    </ul>
  );
  return (
    <section className="threshold-compare" aria-label="Compare thresholds" data-testid="threshold-compare">
      <p className="meta">
        <b>A</b> {methodSetting(method, active.t)} → <b>B</b> {methodSetting(method, t)}{' '}
        <button type="button" className="link" onClick={() => setPinned({ of: analysis, t, method })}>
          pin B as A
        </button>
        <button type="button" className="link" onClick={() => setPinned(null)}>
          close
        </button>
      </p>
      {d && (
        <p className="meta" data-testid="compare-summary">
          {fmtInt(d.gained.length)} pairs gained, {fmtInt(d.lost.length)} lost ·{' '}
          {plural(d.merged.length, 'cluster')} of B merged from A’s, {fmtInt(d.split.length)} of A split ·{' '}
          {plural(d.keptChanged.length, 'page')} whose kept copy changes
        </p>
      )}
      {estA && estB && (
        <p className="meta" data-testid="compare-estimates">
          From the hand labels: precision {fmtEstimate(estA.precision)} → {fmtEstimate(estB.precision)},
          recall {fmtEstimate(estA.recall)} → {fmtEstimate(estB.recall)}
        </p>
      )}
      {d && d.gained.length > 0 && (
        <>
          <h4>Pairs gained</h4>
          {pairList(d.gained, 'compare-gained')}
        </>
      )}
      {d && d.lost.length > 0 && (
        <>
          <h4>Pairs lost</h4>
          {pairList(d.lost, 'compare-lost')}
        </>
      )}
      {d && d.merged.length > 0 && (
        <>
          <h4>Clusters of B merged from A’s</h4>
          {clusterList(d.merged, 'compare-merged', (c) => c)}
        </>
      )}
      {d && d.split.length > 0 && (
        <>
          <h4>Clusters of A split</h4>
          {clusterList(d.split, 'compare-split', (c) => inB(c.members[0]))}
        </>
      )}
      {d && d.keptChanged.length > 0 && (
        <>
          <h4>Kept copy changed</h4>
          <ul className="compare-list" data-testid="compare-kept">
            {d.keptChanged.slice(0, SHOWN).map((x) => (
              <li key={x.page}>
                <Url url={urlOf(x.page)} />: kept <Url url={urlOf(x.before)} /> → <Url url={urlOf(x.after)} />
              </li>
            ))}
          </ul>
        </>
      )}
      {method === 'minhash' && bands && (
        <figure className="lsh-curve">
          <svg ref={svg} role="img" aria-label="LSH S-curve" />
          <figcaption className="meta">
            The chance LSH proposes a pair as a candidate ({bands.bands} bands × {bands.rows} rows), by the
            pair’s exact Jaccard; A dashed, B solid.
          </figcaption>
        </figure>
      )}
    </section>
  );
}

import { useEffect, useMemo, useRef } from 'react';
import { METHOD_LABELS, type MethodId } from '../../core/candidates/methods';
import { useAnalysis } from '../../state/analysis';
import { clusterView } from '../../state/clusters';
import { usePages } from '../../state/pages';
import { drawHistogram } from '../charts/histogram';
import { fmtDuration, fmtInt } from '../format';
import { ParamsPanel } from './ParamsPanel';
import { useDust } from '../../state/dust';
import { explains } from '../../state/cross';
import { normaliseUrl } from '../../core/url/normalize';
import { ThresholdSliders } from './ThresholdSliders';
import { JobProgress } from '../JobProgress';

const SHOWN = 100;

/** Duplicate clusters under the chosen method and thresholds; sliders re-cluster from stored pairs. */
export function ClustersPane() {
  const s = useAnalysis();
  const pages = usePages((p) => p.pages);
  const bySeq = useMemo(() => new Map(pages.map((p) => [p.seq, p])), [pages]);
  const view = useMemo(
    () => (s.analysis ? clusterView(s.analysis, s.method, s.thresholds, s.mode) : null),
    [s.analysis, s.method, s.thresholds, s.mode],
  );
  const svg = useRef<SVGSVGElement>(null);
  const dustRun = useDust((d) => d.run);
  const selectedRule = useDust((d) => d.selectedRule);
  const rule = dustRun?.rules.find((r) => r.id === selectedRule) ?? null;

  useEffect(() => {
    if (!svg.current || !view) return;
    const counts = new Map<number, number>();
    for (const c of view.clusters) counts.set(c.members.length, (counts.get(c.members.length) ?? 0) + 1);
    const max = Math.max(2, ...counts.keys());
    const data = Array.from({ length: Math.min(max, 40) - 1 }, (_, i) => ({
      x: i + 2,
      count: counts.get(i + 2) ?? 0,
    }));
    drawHistogram(svg.current, data, { width: 260, height: 90, xLabel: 'cluster size (pages)' });
  }, [view]);

  if (!s.analysis) {
    return (
      <section className="pane pane-clusters" aria-label="Duplicate clusters">
        <h2>Duplicate clusters</h2>
        {s.computing ? (
          <Progress />
        ) : (
          <>
            <p className="empty">
              No signatures computed yet. Compute exact fingerprints, RP + Hyperlink Map, feature code +
              length, MinHash and SimHash for this dataset's pages, in the background; clusters appear here.
            </p>
            <button type="button" onClick={() => void s.compute()} disabled={s.loading}>
              Compute signatures
            </button>
          </>
        )}
        {s.error && (
          <p className="dataset-error" role="alert">
            {s.error}
          </p>
        )}
      </section>
    );
  }
  const a = s.analysis;
  return (
    <section className="pane pane-clusters" aria-label="Duplicate clusters">
      <div className="pane-head">
        <h2>Duplicate clusters</h2>
        <select
          aria-label="Method"
          value={s.method}
          onChange={(e) => s.setMethod(e.target.value as MethodId)}
        >
          {(Object.keys(METHOD_LABELS) as MethodId[]).map((m) => (
            <option key={m} value={m}>
              {METHOD_LABELS[m]}
            </option>
          ))}
        </select>
        <select
          aria-label="Clustering"
          value={s.mode}
          onChange={(e) => s.setMode(e.target.value as 'components' | 'star')}
        >
          <option value="components">connected components (transitive)</option>
          <option value="star">star clusters (non-transitive)</option>
        </select>
      </div>
      <ThresholdSliders method={s.method} />
      <ParamsPanel />
      {view && (
        <>
          <p className="meta" data-testid="cluster-summary">
            {fmtInt(view.clusters.length)} clusters · {fmtInt(view.pages)} of {fmtInt(a.n)} pages ·{' '}
            {fmtInt(view.accepted)} of {fmtInt(a.pairs.count)} candidate pairs accepted · computed in{' '}
            {fmtDuration(a.elapsedMs)}
          </p>
          <svg ref={svg} className="histogram" role="img" aria-label="Cluster size histogram" />
          <ol className="cluster-list" aria-label="Clusters">
            {view.clusters.slice(0, SHOWN).map((c, i) => {
              const first = bySeq.get(a.seqs[c.members[c.centre >= 0 ? c.members.indexOf(c.centre) : 0]]);
              const explained =
                rule !== null &&
                explains(
                  rule,
                  new Set(c.members.map((m) => normaliseUrl(bySeq.get(a.seqs[m])?.url ?? '').href)),
                );
              return (
                <li key={i}>
                  <button
                    type="button"
                    className={`${s.selectedCluster === i ? 'selected' : ''}${explained ? ' explained' : ''}`}
                    title={explained ? 'explained by the selected DUST rule' : undefined}
                    onClick={() => s.selectCluster(s.selectedCluster === i ? null : i)}
                  >
                    <span className="size">{c.members.length}</span>
                    <span className="title">{first?.title || first?.url || '(untitled)'}</span>
                  </button>
                </li>
              );
            })}
          </ol>
          {view.clusters.length > SHOWN && (
            <p className="meta">
              The {SHOWN} largest of {fmtInt(view.clusters.length)} clusters are listed.
            </p>
          )}
          {view.clusters.length === 0 && <p className="empty">No pair passes these thresholds.</p>}
        </>
      )}
      <div className="pane-foot">
        {s.computing ? (
          <Progress />
        ) : (
          <button type="button" onClick={() => void s.compute()}>
            Recompute
          </button>
        )}
      </div>
    </section>
  );
}

function Progress() {
  const p = useAnalysis((s) => s.progress);
  const cancel = useAnalysis((s) => s.cancel);
  return (
    <JobProgress
      label="Signature progress"
      pct={p && p.total > 0 ? (p.done / p.total) * 100 : 0}
      text={p ? `${p.phase}: ${fmtInt(p.done)} of ${fmtInt(p.total)} pages` : 'starting…'}
      onCancel={cancel}
    />
  );
}

import { SampleEstimates } from './SampleEstimates';
import { useEffect, useMemo, useRef } from 'react';
import { comparable } from '../../core/candidates/comparable';
import { METHOD_LABELS } from '../../core/candidates/methods';
import { CLUSTER_MODE_LABELS } from '../../core/clusters/view';
import type { FormatId } from '../../core/types';
import { useAnalysis } from '../../state/analysis';
import { useLinks } from '../../state/overrides';
import { useDatasets } from '../../state/datasets';
import { shownClusters } from '../../state/clusters';
import { usePages } from '../../state/pages';
import { drawHistogram } from '../charts/histogram';
import { fmtDuration, fmtInt, plural } from '../format';
import { LabelledChoice } from '../Controls';
import { JobProgress } from '../JobProgress';
import { JobInterrupted } from '../JobInterrupted';
import { PaneStart } from '../PaneStart';
import { ClusterList } from './ClusterList';
import { ExportButtons } from './ExportButtons';
import { ParamsPanel } from './ParamsPanel';
import { ThresholdSliders } from './ThresholdSliders';
import { ThresholdCompare } from './ThresholdCompare';
import { selectedDataset } from '../../state/selectors';

/** Duplicate clusters under the chosen method and thresholds; sliders re-cluster from stored pairs. */
export function ClustersPane() {
  const analysis = useAnalysis((s) => s.analysis);
  const method = useAnalysis((s) => s.method);
  const thresholds = useAnalysis((s) => s.thresholds);
  const mode = useAnalysis((s) => s.mode);
  const computing = useAnalysis((s) => s.computing);
  const loading = useAnalysis((s) => s.loading);
  const error = useAnalysis((s) => s.error);
  const compute = useAnalysis((s) => s.compute);
  const interrupted = useAnalysis((s) => s.interrupted);
  const dismissInterrupted = useAnalysis((s) => s.dismissInterrupted);
  const interruptedNote = (
    <JobInterrupted
      since={computing ? null : interrupted}
      doing="Computing signatures"
      onRestart={() => void compute()}
      onDismiss={dismissInterrupted}
      testId="signatures-interrupted"
    />
  );
  const setMethod = useAnalysis((s) => s.setMethod);
  const setMode = useAnalysis((s) => s.setMode);
  const pages = usePages((p) => p.pages);
  const pagesLoading = usePages((p) => p.loading);
  const textPages = useMemo(() => pages.filter(comparable).length, [pages]);
  const format = useDatasets((s) => selectedDataset(s)?.format ?? null);
  const links = useLinks(analysis);
  const view = useMemo(
    () => (analysis ? shownClusters(analysis, method, thresholds, mode, links) : null),
    [analysis, method, thresholds, mode, links],
  );

  // Fewer than two pages with text: nothing to compare. Why depends on the format (see NoText).
  const tooFewTexts = !pagesLoading && pages.length > 0 && textPages < 2 && (!analysis || analysis.n < 2);
  if (tooFewTexts) {
    return (
      <PaneStart className="pane-clusters" title="Duplicate clusters">
        <NoText format={format} pages={pages.length} textPages={textPages} />
      </PaneStart>
    );
  }
  if (!analysis || !view) {
    return (
      <PaneStart
        className="pane-clusters"
        title="Duplicate clusters"
        running={computing}
        progress={<Progress />}
        error={error}
      >
        {interruptedNote}
        <p className="empty">
          No signatures computed yet. Compute exact fingerprints, RP + Hyperlink Map, feature code + length,
          MinHash and SimHash for this dataset's {pagesLoading ? '' : `${fmtInt(textPages)} `}pages with text,
          in the background; clusters appear here.
        </p>
        <button type="button" onClick={() => void compute()} disabled={loading}>
          Compute signatures
        </button>
      </PaneStart>
    );
  }
  return (
    <section className="pane pane-clusters" aria-label="Duplicate clusters">
      <div className="pane-head">
        <h2>Duplicate clusters</h2>
        <LabelledChoice label="Method" value={method} labels={METHOD_LABELS} onChange={setMethod} />
        <LabelledChoice label="Clustering" value={mode} labels={CLUSTER_MODE_LABELS} onChange={setMode} />
      </div>
      {interruptedNote}
      <ThresholdSliders method={method} />
      <ThresholdCompare />
      <ParamsPanel />
      <p className="meta" data-testid="cluster-summary">
        {plural(view.clusters.length, 'cluster')} · {fmtInt(view.pages)} of {plural(analysis.n, 'page')} ·{' '}
        {fmtInt(view.accepted)} of {plural(analysis.pairs.count, 'candidate pair')} accepted · computed in{' '}
        {fmtDuration(analysis.elapsedMs)}
      </p>
      {(analysis.captures?.of.length ?? 0) > 0 && (
        <p className="meta" data-testid="captures-note">
          {plural(analysis.captures!.of.length, 'other capture')} of URLs captured more than once{' '}
          {analysis.captures!.of.length === 1 ? 'is' : 'are'} counted with their URL’s earliest capture (one
          page with its captures, as the batch folds them; “Captures of one URL” in the signature parameters
          compares them).
        </p>
      )}
      <SampleEstimates view={view} />
      <SizeHistogram view={view} />
      <ClusterList view={view} />
      {view.clusters.length === 0 && <p className="empty">No pair passes these thresholds.</p>}
      <div className="pane-foot">
        {view.clusters.length > 0 && <ExportButtons view={view} />}
        {computing ? (
          <Progress />
        ) : (
          <button type="button" onClick={() => void compute()}>
            Recompute
          </button>
        )}
      </div>
    </section>
  );
}

type View = ReturnType<typeof shownClusters>;

/** Formats that list URLs without their documents: no page of theirs has text to compare. */
const WITHOUT_DOCUMENTS: ReadonlySet<FormatId> = new Set(['access-log', 'crawl-log', 'cdx', 'url-list']);
/** Tables carry text only when they have a text column. */
const TABLES: ReadonlySet<FormatId> = new Set(['csv', 'tsv']);

/**
 * Why there are no clusters to compute: a format without documents (an access log, crawl.log, CDX or URL
 * list; a CSV or TSV without a text column) has nothing to compare; a crawl with documents (WARC, ARC,
 * JSONL) just has fewer than the two pages with text that a pair needs.
 */
function NoText({ format, pages, textPages }: { format: FormatId | null; pages: number; textPages: number }) {
  const dust = <>DUST rules still work on the URLs alone: mine them in the DUST pane</>;
  if (format !== null && (WITHOUT_DOCUMENTS.has(format) || (TABLES.has(format) && textPages === 0))) {
    return (
      <p className="empty" data-testid="clusters-no-text">
        No page text to compare: this dataset lists URLs ({fmtInt(pages)}) without their documents
        {textPages === 1 ? ' (one page has text)' : ''} —{' '}
        {TABLES.has(format) ? 'a table without a text column' : 'an access log, crawl.log, CDX or URL list'}.
        Near-replicas need page text; load a WARC, ARC or JSONL crawl for them. {dust} (they stay{' '}
        <em>likely</em>, as nothing can be fetched to validate them).
      </p>
    );
  }
  return (
    <p className="empty" data-testid="clusters-no-text">
      Too few pages to compare: {textPages} of this dataset&apos;s {plural(pages, 'page')}{' '}
      {textPages === 1 ? 'has' : 'have'} text (HTML or plain text); near-replicas need at least 2 pages with
      text. {dust}.
    </p>
  );
}

function SizeHistogram({ view }: { view: View }) {
  const svg = useRef<SVGSVGElement>(null);
  useEffect(() => {
    if (!svg.current) return;
    const counts = new Map<number, number>();
    for (const c of view.clusters) counts.set(c.members.length, (counts.get(c.members.length) ?? 0) + 1);
    const max = Math.max(2, ...counts.keys());
    const data = Array.from({ length: Math.min(max, 40) - 1 }, (_, i) => ({
      x: i + 2,
      count: counts.get(i + 2) ?? 0,
    }));
    drawHistogram(svg.current, data, { width: 260, height: 90, xLabel: 'cluster size (pages)' });
  }, [view]);
  return <svg ref={svg} className="histogram" role="img" aria-label="Cluster size histogram" />;
}

function Progress() {
  const p = useAnalysis((s) => s.progress);
  const cancel = useAnalysis((s) => s.cancel);
  return (
    <JobProgress
      label="Signature progress"
      pct={p && p.total > 0 ? (p.done / p.total) * 100 : 0}
      text={p ? `${p.phase}: ${fmtInt(p.done)} of ${plural(p.total, 'page')}` : 'starting…'}
      onCancel={cancel}
    />
  );
}

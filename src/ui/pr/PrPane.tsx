import { useEffect, useMemo, useRef, useState } from 'react';
import {
  comparisonCurves,
  figure1,
  methodCurve,
  methodPoint,
  oracleTruth,
  type Oracle,
} from '../../core/eval/figure1';
import type { CurvePoint } from '../../core/eval/curves';
import { useAnalysis } from '../../state/analysis';
import { useLinks } from '../../state/overrides';
import { seriesColor, svgWithLegend } from '../charts/frame';
import { curveLabel, drawPrCurves, FULL_DOMAIN, prDomain } from '../charts/pr-curves';
import { formatDelimited, type Cell } from '../../core/csv';
import { download } from '../download';
import { datasetName, exportFileName, methodTags } from '../exports';
import { useLayout } from '../../state/layout';
import { DEFAULT_THRESHOLDS } from '../../core/candidates/methods';
import { oracleOverlap } from '../../core/eval/oracle-overlap';
import { shownClusters } from '../../state/clusters';
import { pageLevel, pagesWithReplica } from '../../core/eval/pages';
import { useLabels } from '../../state/labels';
import { usePaneWidth } from '../PaneFrame';
import { plural } from '../format';
import { LabelEstimatesLine } from '../labels/LabelEstimatesLine';
import { methodSetting } from '../method-name';
import { OracleWarning } from './OracleWarning';
import { seqIndex } from '../../state/selectors';

/**
 * Precision–recall over C and D (Di Iorio et al., Figure 1) with oracle truth over the candidate
 * pairs: cosine of bags of words ≥ τ (the paper's precision check) or Jaccard ≥ τ. Curves at three
 * fixed D (around the current one) with C varying, and C = 1 (RP only) — the papers' curves, always
 * drawn — plus the chosen method's own curve over its threshold when it is another method. The operating
 * point is the chosen method's at its thresholds, and named (issue #24: it was RP + HM's, unnamed,
 * whatever the method); a click on an RP + HM curve sets C and D. No candidate pair, no duplicate in the
 * truth or no accepted pair is said in words instead of a point at a 0/0 convention.
 */
export function PrPane() {
  const analysis = useAnalysis((s) => s.analysis);
  const t = useAnalysis((s) => s.thresholds);
  const setThreshold = useAnalysis((s) => s.setThreshold);
  // Jaccard by default: on crawls whose pages share a vocabulary (the sample; one site's boilerplate) the
  // bag-of-words cosine of nearly every candidate pair is ≥ 0.9 and tells little. Cosine, the paper's
  // check, is one click away.
  const [oracle, setOracle] = useState<Oracle>('jaccard');
  const [tau, setTau] = useState(0.8);
  const svg = useRef<SVGSVGElement>(null);
  // The chart takes the pane's width (PaneFrame measures it), the whole main area when enlarged, and
  // there as much of the window's height as leaves the controls and the numbers below it in view.
  const paneWidth = usePaneWidth();
  const enlarged = useLayout((s) => s.enlarged === 'pr');
  const chartWidth = Math.max(300, paneWidth - 24);
  const maxHeight = enlarged ? Math.max(440, window.innerHeight - 330) : 440;
  const chartHeight = Math.max(240, Math.min(Math.round(0.6 * chartWidth), maxHeight));
  const maxD = analysis?.maxD ?? 0.1;
  // The three D values of the C curves: the analyst's picks (Figure 1 fixes D per curve). Moving the
  // sliders never redraws the curves, only the operating point.
  const [picked, setPicked] = useState<number[] | null>(null);
  const Ds = useMemo(() => {
    if (picked) return picked.map((d) => Math.min(d, maxD));
    const d = Math.min(DEFAULT_THRESHOLDS.D, maxD);
    return [d / 2, d, Math.min(maxD, d * 2)].map((x) => +x.toFixed(4));
  }, [picked, maxD]);
  const truth = useMemo(
    () => (analysis ? oracleTruth(analysis.pairs, oracle, tau) : null),
    [analysis, oracle, tau],
  );
  const fig = useMemo(
    () => (analysis && truth ? figure1(analysis.pairs, truth, Ds, maxD) : null),
    [analysis, truth, Ds, maxD],
  );
  const method = useAnalysis((s) => s.method);
  // RP + HM's point from Figure 1's sorted table, memoised on (C, D): another slider leaves it alone.
  const rpPoint = useMemo(() => (fig ? fig.at(t.C, t.D) : null), [fig, t.C, t.D]);
  // Another method's point by its own accept rule, memoised on its own thresholds.
  const ownKey = method === 'rp-hm' ? '' : methodSetting(method, t);
  const ownPoint = useMemo(
    () => (analysis && truth && method !== 'rp-hm' ? methodPoint(analysis.pairs, truth, method, t) : null),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- ownKey names the thresholds the method reads
    [analysis, truth, method, ownKey],
  );
  const current = method === 'rp-hm' ? rpPoint : ownPoint;
  const ownCurve = useMemo(
    () => (analysis && truth ? methodCurve(analysis.pairs, truth, method) : null),
    [analysis, truth, method],
  );
  const [compare, setCompare] = useState(false);
  // The axes fit the curves by default (a good method's curves share the top fifth of 0–100%).
  const [whole, setWhole] = useState(false);
  // In comparison mode the RP + HM curve is drawn at the current D (the others do not depend on it).
  const compareD = compare ? Math.min(t.D, maxD) : 0;
  const curves = useMemo(
    () =>
      fig && analysis && truth
        ? compare
          ? comparisonCurves(analysis.pairs, truth, compareD, maxD)
          : ownCurve
            ? [...fig.curves, ownCurve]
            : fig.curves
        : [],
    [fig, analysis, truth, compare, compareD, maxD, ownCurve],
  );
  const references = useLabels((s) => s.references);
  const links = useLinks(analysis);
  const mode = useAnalysis((s) => s.mode);
  // Page seq → index in the pair table: built once per analysis, shared by page level and labels.
  const indexOfSeq = useMemo(() => (analysis ? seqIndex(analysis) : new Map<number, number>()), [analysis]);
  // Methods among the drawn curves that measure what the oracle measures (their agreement is built in).
  const overlaps = useMemo(() => {
    const drawn = new Set(curves.map((c) => c.method));
    return oracleOverlap(oracle).filter((o) => drawn.has(o.method));
  }, [curves, oracle]);
  // Page level (§3): returned = pages in the current clusters; replica truth = the oracle at τ.
  const pages = useMemo(() => {
    if (!analysis || references.size === 0) return null;
    const view = shownClusters(analysis, method, t, mode, links);
    const returned = new Set<number>();
    for (const c of view.clusters) for (const m of c.members) returned.add(m);
    const refs = new Set(
      [...references].map((s) => indexOfSeq.get(s)).filter((i): i is number => i !== undefined),
    );
    const has = pagesWithReplica(
      analysis.n,
      analysis.pairs.a,
      analysis.pairs.b,
      oracle === 'cosine' ? analysis.pairs.cosine : analysis.pairs.jaccard,
      tau,
    );
    return pageLevel(returned, refs, (p) => has[p] === 1);
  }, [analysis, indexOfSeq, references, method, t, mode, oracle, tau, links]);
  useEffect(() => {
    if (!svg.current || !fig || !current) return;
    const shown = undefinedRatio(current) ? null : current;
    drawPrCurves(svg.current, curves, shown, {
      width: chartWidth,
      height: chartHeight,
      domain: whole ? FULL_DOMAIN : prDomain(curves, shown),
      onPick: (c, p) => {
        if (c.vary === 'method') return;
        if (c.vary === 'C') {
          setThreshold('D', c.fixed);
          setThreshold('C', +p.threshold.toFixed(3));
        } else {
          setThreshold('C', 1);
          setThreshold('D', +p.threshold.toFixed(4));
        }
      },
    });
  }, [fig, curves, current, setThreshold, chartWidth, chartHeight, whole]);

  if (analysis && analysis.pairs.count === 0) {
    return (
      <section className="pane" aria-label="Precision and recall">
        <h2>Precision–recall</h2>
        <p className="empty" data-testid="pr-empty">
          No candidate pairs: no method found two of the {plural(analysis.n, 'page')} alike enough to compare,
          so there is no precision or recall to draw, for {methodSetting(method, t)} or any other setting.
        </p>
        <LabelEstimatesLine testId="pr-labels" />
      </section>
    );
  }
  if (!analysis || !fig || !current) {
    return (
      <section className="pane" aria-label="Precision and recall">
        <h2>Precision–recall</h2>
        <p className="empty">
          Curves over the C and D thresholds appear here once signatures are computed: truth from an oracle
          (cosine or Jaccard) over the candidate pairs; hand labels come next.
        </p>
      </section>
    );
  }
  // Exports hold the curves drawn, named as the legend names them, in files named by the dataset, the
  // operating point (or the compared methods' D) and the truth.
  const truthText = `${oracle === 'cosine' ? 'cosine' : 'Jaccard'} ≥ ${tau}`;
  const tags = [
    // The curves drawn (RP + HM's C and D, or the methods compared), then the operating point's method.
    ...(compare ? ['compare-methods', `D-${+compareD.toFixed(4)}`] : ['rp-hm-curves']),
    ...methodTags(method, t).map((x, i) => (i === 0 ? `at-${x}` : x)),
    `truth-${oracle}-${tau}`,
  ];
  const exportCsv = () => {
    const rows: Cell[][] = [
      ['curve', 'method', 'vary', 'fixed', 'truth', 'threshold', 'precision', 'recall'],
    ];
    curves.forEach((c) =>
      c.points.forEach((p) =>
        rows.push([curveLabel(c), c.method, c.vary, c.fixed, truthText, p.threshold, p.precision, p.recall]),
      ),
    );
    download(exportFileName(tags, 'pr-curves', 'csv'), 'text/csv', formatDelimited(rows));
  };
  const exportSvg = () => {
    if (!svg.current) return;
    const legend = curves.map((c) => ({
      label: `${curveLabel(c)} — ${c.breakEven ? `break-even ${(100 * c.breakEven.value).toFixed(1)}%` : 'no break-even in range'}`,
    }));
    const note = `${datasetName()} · truth ${truthText} · operating point (dot) ${methodSetting(method, t)}`;
    download(
      exportFileName(tags, 'pr-curves', 'svg'),
      'image/svg+xml',
      svgWithLegend(svg.current, legend, note),
    );
  };
  return (
    <section className="pane" aria-label="Precision and recall">
      <div className="pane-head">
        <h2>Precision–recall</h2>
      </div>
      <div className="pr-controls">
        <label>
          truth{' '}
          <select aria-label="Oracle" value={oracle} onChange={(e) => setOracle(e.target.value as Oracle)}>
            <option value="cosine">cosine ≥ τ</option>
            <option value="jaccard">Jaccard ≥ τ</option>
          </select>
        </label>
        <label>
          D curves{' '}
          {Ds.map((d, i) => (
            <input
              key={i}
              type="number"
              aria-label={`D of curve ${i + 1}`}
              min={0.001}
              max={maxD}
              step={0.001}
              value={d}
              onChange={(e) => {
                const v = Number(e.target.value);
                if (e.target.value && v > 0) setPicked(Ds.map((x, j) => (j === i ? v : x)));
              }}
            />
          ))}
        </label>
        <label>
          <input type="checkbox" checked={compare} onChange={(e) => setCompare(e.target.checked)} /> compare
          methods
        </label>
        <label>
          τ{' '}
          <input
            type="number"
            aria-label="tau"
            min={0.5}
            max={1}
            step={0.01}
            value={tau}
            onChange={(e) => e.target.value && setTau(Number(e.target.value))}
          />
        </label>
      </div>
      <svg ref={svg} role="img" aria-label="Precision-recall curves" />
      <p className="meta pr-zoom">
        {whole ? 'Axes 0–100%. ' : 'Axes fitted to the curves (not from 0). '}
        <button type="button" className="link" aria-pressed={whole} onClick={() => setWhole(!whole)}>
          {whole ? 'Fit to the curves' : 'Show 0–100%'}
        </button>
      </p>
      <p className="meta" data-testid="pr-current">
        {methodSetting(method, t)}: {pointText(current, truthText)}
      </p>
      <LabelEstimatesLine testId="pr-labels" />
      {pages && (
        <p className="meta" data-testid="pr-pages">
          {methodSetting(method, t)}, page level ({plural(pages.references, 'reference page')}): recall{' '}
          {(100 * pages.recall).toFixed(1)}% · precision {(100 * pages.precision).toFixed(1)}% of{' '}
          {plural(pages.returned, 'returned page')} (oracle {oracle} ≥ {tau})
        </p>
      )}
      {overlaps.length > 0 && <OracleWarning oracle={oracle} overlaps={overlaps} />}
      <ul className="legend">
        {curves.map((c, i) => (
          <li key={i}>
            <span className="swatch" style={{ background: seriesColor(i) }} /> {curveLabel(c)} —{' '}
            {c.breakEven ? `break-even ${(100 * c.breakEven.value).toFixed(1)}%` : 'no break-even in range'}
          </li>
        ))}
      </ul>
      <p className="meta">
        <button type="button" onClick={exportCsv}>
          Export CSV
        </button>{' '}
        <button type="button" onClick={exportSvg}>
          Export SVG
        </button>
      </p>
    </section>
  );
}

/** 0/0 on either axis: the point stands on a convention, not on pairs, and is not plotted. */
function undefinedRatio(p: CurvePoint): boolean {
  return p.tp + p.fp === 0 || p.tp + p.fn === 0;
}

/** The operating point in words; a ratio over nothing is said as such, never as 100% or 0%. */
function pointText(p: CurvePoint, truthText: string): string {
  const pct = (v: number) => `${(100 * v).toFixed(1)}%`;
  if (p.tp + p.fn === 0 && p.tp + p.fp === 0)
    return `no candidate pair is a duplicate by the truth (${truthText}) and none is accepted: nothing to measure`;
  if (p.tp + p.fn === 0)
    return `no candidate pair is a duplicate by the truth (${truthText}), so recall is undefined; all ${plural(p.fp, 'accepted pair')} are false positives`;
  if (p.tp + p.fp === 0) return `no pair accepted, so precision is undefined; recall 0.0%`;
  return `precision ${pct(p.precision)}, recall ${pct(p.recall)}`;
}

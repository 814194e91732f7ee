import { writeFileSync } from 'node:fs';
import type { EngineResult } from '../core/candidates/engine-result';
import { accepts, DEFAULT_THRESHOLDS, METHOD_LABELS, type MethodId } from '../core/candidates/methods';
import { ThresholdCurve, breakEven } from '../core/eval/curves';
import { precisionRecall, type Estimate } from '../core/eval/estimators';
import { formatDelimited } from '../core/csv';
import { decodeLabels, describeProblems } from '../core/eval/labels-codec';
import { locatePair } from '../core/eval/pair-key';
import { normaliseUrl } from '../core/url/normalize';

/**
 * Precision and recall per method at the default thresholds from hand labels (design-weighted, 95%
 * Wilson intervals), and the RP curve (C = 1, D varying) from the labels, written as CSV.
 */
export function labelReport(
  r: EngineResult,
  urls: string[],
  text: string,
  name: string,
  csvOut: string,
): { text: string; json: unknown } {
  // Labels name pages by URL (seqs belong to the workbench's own copy of the dataset).
  const index = new Map(urls.map((u, i) => [normaliseUrl(u).href, i]));
  const decoded = decodeLabels(text);
  const withoutUrls = decoded.rows.filter((l) => !l.urlA || !l.urlB).length;
  const rows = decoded.rows
    .filter((l) => l.urlA && l.urlB)
    .filter((l) => (l.label === 'dup' || l.label === 'not') && Number.isFinite(l.pi) && l.pi > 0)
    .map((l) => {
      const k = locatePair(r.pairs, index, normaliseUrl(l.urlA).href, normaliseUrl(l.urlB).href);
      return { ...l, k: k ?? undefined };
    });
  const fmt = (e: Estimate) =>
    Number.isFinite(e.value)
      ? `${(100 * e.value).toFixed(1)}% [${(100 * e.lo).toFixed(1)}–${(100 * e.hi).toFixed(1)}]`
      : '–';
  const lines = [
    `labels      ${rows.length} usable (${rows.filter((x) => x.k === undefined).length} not among the candidate pairs: never accepted)`,
  ];
  if (decoded.problems.length) lines.push(`  ${name}: ${describeProblems(decoded.problems)}`);
  if (withoutUrls) lines.push(`  ${withoutUrls} labels without URLs (page seqs only) cannot be matched here`);
  const methods: Record<string, unknown> = {};
  for (const m of Object.keys(METHOD_LABELS) as MethodId[]) {
    const pr = precisionRecall(
      rows.map((x) => ({
        label: x.label,
        pi: x.pi,
        predicted: x.k !== undefined && accepts(r.pairs, m, DEFAULT_THRESHOLDS, x.k),
      })),
    );
    lines.push(`  ${METHOD_LABELS[m].padEnd(34)} precision ${fmt(pr.precision)}  recall ${fmt(pr.recall)}`);
    methods[m] = pr;
  }
  // The RP curve from the labels: score ‖ΔR‖∞, truth weights 1/π; unlabelled pairs weigh nothing.
  const dup = new Float64Array(r.pairs.count);
  const not = new Float64Array(r.pairs.count);
  let missed = 0;
  for (const x of rows) {
    if (x.k === undefined) {
      if (x.label === 'dup') missed += 1 / x.pi;
      continue;
    }
    if (x.label === 'dup') dup[x.k] += 1 / x.pi;
    else not[x.k] += 1 / x.pi;
  }
  const curve = new ThresholdCurve(r.pairs.dR, dup, not, missed);
  const pts = curve.sample(0, 0.1, 100).filter((p) => p.threshold > 0);
  const be = breakEven(pts);
  lines.push(
    `  RP only (C = 1): ${be ? `break-even ${(100 * be.value).toFixed(1)}% at D = ${be.threshold.toFixed(3)}` : 'no break-even in range (precision and recall never cross for D ≤ 0.1)'}; curve written to ${csvOut}`,
  );
  writeFileSync(
    csvOut,
    formatDelimited([['D', 'precision', 'recall'], ...pts.map((p) => [p.threshold, p.precision, p.recall])]),
  );
  // RP + HM: for D on a grid, the C curve (score ‖ΔX‖∞ among pairs inside the D cube); the best break-even.
  let bestHm: { value: number; C: number; D: number } | null = null;
  for (let i = 1; i <= 40; i++) {
    const D = (0.1 * i) / 40;
    const score = Float64Array.from({ length: r.pairs.count }, (_, k) =>
      r.pairs.dR[k] < D ? r.pairs.dX[k] : Infinity,
    );
    const c = new ThresholdCurve(score, dup, not, missed);
    const b = breakEven(c.sample(0, 1, 100).filter((p) => p.threshold > 0));
    if (b && (!bestHm || b.value > bestHm.value)) bestHm = { value: b.value, C: b.threshold, D };
  }
  lines.push(
    bestHm
      ? `  RP + HM: best break-even ${(100 * bestHm.value).toFixed(1)}% at D = ${bestHm.D.toFixed(3)}, C = ${bestHm.C.toFixed(3)}`
      : '  RP + HM: no break-even in range (precision and recall never cross for D ≤ 0.1, C ≤ 1)',
  );
  return {
    text: lines.join('\n'),
    json: { labels: rows.length, methods, rpBreakEven: be, rpHmBreakEven: bestHm },
  };
}

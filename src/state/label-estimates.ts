import { accepts, type MethodId, type Thresholds } from '../core/candidates/methods';
import { precisionRecall, type Estimate } from '../core/eval/estimators';
import { locatePair } from '../core/eval/pair-key';
import type { StoredAnalysis, StoredLabel } from '../db/schema';
import { useAnalysis } from './analysis';
import { useLabels } from './labels';

/**
 * Precision and recall from hand labels at the chosen method and thresholds, with 95% intervals
 * (core/eval/estimators.ts). One memoised selector read by the labelling pane and the PR pane alike, so
 * the estimate is computed once per change of its inputs, however many panes show it.
 */
export interface LabelEstimates {
  method: MethodId;
  thresholds: Thresholds;
  /** Labels of a probability sample (finite π): the ones the estimate stands on. */
  n: number;
  /** Labels without an inclusion probability (a cluster's pairs): kept, not counted in the estimate. */
  unsampled: number;
  precision: Estimate;
  recall: Estimate;
}

const seqIndexes = new WeakMap<StoredAnalysis, Map<number, number>>();

/** Page seq → index in the analysis' pair table, built once per analysis. */
export function seqIndex(analysis: StoredAnalysis): Map<number, number> {
  let m = seqIndexes.get(analysis);
  if (!m) {
    m = new Map(Array.from(analysis.seqs, (seq, i) => [seq, i]));
    seqIndexes.set(analysis, m);
  }
  return m;
}

let last: {
  analysis: StoredAnalysis;
  labels: Map<string, StoredLabel>;
  method: MethodId;
  thresholds: Thresholds;
  out: LabelEstimates;
} | null = null;

/** The estimates, recomputed only when the analysis, the labels, the method or the thresholds change. */
export function labelEstimates(
  analysis: StoredAnalysis | null,
  labels: Map<string, StoredLabel>,
  method: MethodId,
  thresholds: Thresholds,
): LabelEstimates | null {
  if (!analysis) return null;
  if (
    last &&
    last.analysis === analysis &&
    last.labels === labels &&
    last.method === method &&
    last.thresholds === thresholds
  )
    return last.out;
  const index = seqIndex(analysis);
  const rows = [...labels.values()];
  const sampled = rows.filter((l) => Number.isFinite(l.pi) && l.pi > 0);
  const weighted = sampled.map((l) => {
    const k = locatePair(analysis.pairs, index, l.a, l.b);
    return {
      label: l.label,
      pi: l.pi,
      predicted: k !== null && accepts(analysis.pairs, method, thresholds, k),
    };
  });
  const out: LabelEstimates = {
    method,
    thresholds,
    n: sampled.length,
    unsampled: rows.length - sampled.length,
    ...precisionRecall(weighted),
  };
  last = { analysis, labels, method, thresholds, out };
  return out;
}

/** The estimates for the shown dataset (null before its analysis is loaded). */
export function useLabelEstimates(): LabelEstimates | null {
  const analysis = useAnalysis((s) => s.analysis);
  const method = useAnalysis((s) => s.method);
  const thresholds = useAnalysis((s) => s.thresholds);
  const labels = useLabels((s) => s.labels);
  return labelEstimates(analysis, labels, method, thresholds);
}

import { accepts, type MethodId, type Thresholds } from '../core/candidates/methods';
import { precisionRecall, type Estimate } from '../core/eval/estimators';
import { locatePair } from '../core/eval/pair-key';
import { pairPi, type SampleInfo } from '../core/sample/sample-plan';
import type { StoredAnalysis, StoredLabel, StoredPage } from '../db/schema';
import { useDatasets } from './datasets';
import { usePages } from './pages';
import { useAnalysis } from './analysis';
import { useLabels } from './labels';
import { selectedDataset, seqIndex } from './selectors';
import { pairMeasures } from '../core/eval/evidence';
import type { LabelRecord } from '../core/eval/label-record';
import { rulesExplaining } from '../core/dust/cluster-kind';
import { ruleSpelling, type Rule } from '../core/dust';

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
  /** Labels without an inclusion probability (a cluster's pairs, imported): kept, not counted in the estimate. */
  unsampled: number;
  /** Of those, the labels imported from a file (Splink, dedupe, a workbench's). */
  imported: number;
  /** Weighted by a sample's design too: the estimates stand for the whole crawl the sample was drawn from. */
  wholeCrawl: boolean;
  precision: Estimate;
  recall: Estimate;
}

let last: {
  analysis: StoredAnalysis;
  labels: Map<string, StoredLabel>;
  method: MethodId;
  thresholds: Thresholds;
  designPi?: (a: number, b: number) => number;
  out: LabelEstimates;
} | null = null;

/** The estimates, recomputed only when the analysis, the labels, the method or the thresholds change. */
export function labelEstimates(
  analysis: StoredAnalysis | null,
  labels: Map<string, StoredLabel>,
  method: MethodId,
  thresholds: Thresholds,
  /** A dataset read as a designed sample: each pair's inclusion probability in the design (sample-plan.ts pairPi). */
  designPi?: (a: number, b: number) => number,
): LabelEstimates | null {
  if (!analysis) return null;
  if (
    last &&
    last.analysis === analysis &&
    last.labels === labels &&
    last.method === method &&
    last.thresholds === thresholds &&
    last.designPi === designPi
  )
    return last.out;
  const index = seqIndex(analysis);
  const rows = [...labels.values()];
  // Imported labels are outside this dataset's sampling design, whatever π their file gave them.
  const sampled = rows.filter((l) => !l.origin && Number.isFinite(l.pi) && l.pi > 0);
  const weighted = sampled.map((l) => {
    const k = locatePair(analysis.pairs, index, l.a, l.b);
    return {
      label: l.label,
      // A label stands for 1/π pairs of the sample, each for 1/π′ of the crawl (π′ the design's).
      pi: l.pi * (designPi ? designPi(l.a, l.b) : 1),
      predicted: k !== null && accepts(analysis.pairs, method, thresholds, k),
    };
  });
  const out: LabelEstimates = {
    method,
    thresholds,
    n: sampled.length,
    unsampled: rows.length - sampled.length,
    imported: rows.filter((l) => l.origin).length,
    wholeCrawl: designPi !== undefined,
    ...precisionRecall(weighted),
  };
  last = { analysis, labels, method, thresholds, designPi, out };
  return out;
}

/** The estimates for the shown dataset (null before its analysis is loaded). */
export function useLabelEstimates(): LabelEstimates | null {
  const analysis = useAnalysis((s) => s.analysis);
  const method = useAnalysis((s) => s.method);
  const thresholds = useAnalysis((s) => s.thresholds);
  const labels = useLabels((s) => s.labels);
  const sample = useDatasets((s) => selectedDataset(s)?.sample);
  const pages = usePages((s) => s.pages);
  return labelEstimates(analysis, labels, method, thresholds, designPiOf(sample, pages));
}

let lastDesign: {
  sample: SampleInfo;
  pages: readonly StoredPage[];
  pi: (a: number, b: number) => number;
} | null = null;

/** The pair probabilities of a sample's design, by page seq (one function per sample and page list). */
function designPiOf(
  sample: SampleInfo | undefined,
  pages: readonly StoredPage[],
): ((a: number, b: number) => number) | undefined {
  if (!sample) return undefined;
  if (lastDesign && lastDesign.sample === sample && lastDesign.pages === pages) return lastDesign.pi;
  const unit = new Map<number, number>();
  for (const p of pages) if (p.sampleUnit !== undefined) unit.set(p.seq, p.sampleUnit);
  const pi = (a: number, b: number) => pairPi(sample, unit.get(a), unit.get(b));
  lastDesign = { sample, pages, pi };
  return pi;
}

/**
 * A labelled pair's evidence for the labels' JSON export (core/eval/evidence.ts): each method's measure
 * against the thresholds, the DUST rules linking the two URLs. Undefined when the pair is not one the
 * analysis compared.
 */
export function evidenceOf(
  analysis: StoredAnalysis,
  seqA: number,
  seqB: number,
  urlOf: (seq: number) => string | undefined,
  rules: readonly Rule[] | null,
  thresholds: Thresholds,
): LabelRecord['evidence'] {
  const index = seqIndex(analysis);
  const k = locatePair(analysis.pairs, index, seqA, seqB);
  if (k === null) return undefined;
  const urls = [urlOf(seqA) ?? '', urlOf(seqB) ?? ''];
  return {
    measures: pairMeasures(analysis.pairs, k, thresholds).map(({ method, value, rule, passes }) => ({
      method,
      value,
      rule,
      passes,
    })),
    rules: rules ? rulesExplaining(rules, urls).map((r) => ruleSpelling(r)) : [],
  };
}

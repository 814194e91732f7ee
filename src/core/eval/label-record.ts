import type { LabelValue } from './estimators';
import type { Strategy } from './sampling';

/** A label as a file holds it (labels-codec.ts reads and writes the workbench's files). */
export interface LabelRecord {
  /** Page seqs (NaN when the file has only URLs). */
  a: number;
  b: number;
  urlA: string;
  urlB: string;
  label: LabelValue;
  strategy: Strategy;
  /** Inclusion probability; NaN when not a probability sample (near-threshold, a cluster's pairs). */
  pi: number;
  at: string;
  /**
   * Where the label was made when it was not made here: read from a file of Splink, dedupe or the
   * workbench. An imported label is outside this dataset's sampling design (its pair was not drawn by
   * this dataset's queue with a known probability), so the estimates count it apart.
   */
  origin?: LabelOrigin;
  /**
   * Why the pair is or is not called a duplicate, as the workbench exports it with the labels (JSON
   * only; evidence.ts): each method's measure against its threshold, the DUST rules linking the URLs.
   */
  evidence?: {
    measures: { method: string; value: string; rule: string; passes: boolean }[];
    rules: string[];
  };
}

/** The tool whose file a label was imported from (LabelRecord.origin). */
export type LabelOrigin = 'splink' | 'dedupe' | 'workbench';

export interface LabelProblem {
  /** 1-based record number after the header (CSV) or array position (JSON); 0 for the whole file. */
  row: number;
  /** 1-based line of the CSV file the record starts on. */
  line?: number;
  reason: string;
}

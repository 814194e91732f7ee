// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_THRESHOLDS } from '../../src/core/candidates/methods';
import { pairKey } from '../../src/core/eval/pair-key';
import { analysisOfRows } from './analysis-fixture';
import type { StoredAnalysis, StoredLabel, StoredPage } from '../../src/db/schema';

vi.mock('../../src/workers/client', () => ({ Comlink: { proxy: <T,>(f: T) => f } }));
const { useAnalysis } = await import('../../src/state/analysis');
const { useLabels } = await import('../../src/state/labels');
const { usePages } = await import('../../src/state/pages');
const { labelEstimates } = await import('../../src/state/label-estimates');
const { LabelView } = await import('../../src/ui/labels/LabelView');
const { PrPane } = await import('../../src/ui/pr/PrPane');

const SEQS = [10, 11, 12, 13];
const URLS = ['http://x.test/a', 'http://x.test/b', 'http://x.test/c', 'http://x.test/d'];

/** Pairs by exact Jaccard: (0,1) 0.95, (0,2) 0.85, (1,2) 0.5, (2,3) 0.3; every pair an LSH candidate. */
function analysis(
  rows: number[][] = [
    [0, 1, 0.95],
    [0, 2, 0.85],
    [1, 2, 0.5],
    [2, 3, 0.3],
  ],
): StoredAnalysis {
  return analysisOfRows(SEQS, rows);
}

const label = (a: number, b: number, value: StoredLabel['label']): StoredLabel => ({
  datasetId: 1,
  a,
  b,
  label: value,
  strategy: 'random',
  pi: 1,
  at: `2024-05-01T10:00:0${a - 10}Z`,
});

const setLabels = (rows: StoredLabel[]) =>
  act(() => useLabels.setState({ labels: new Map(rows.map((r) => [pairKey(r.a, r.b), r])) }));

beforeEach(() => {
  usePages.setState({ datasetId: 1, pages: SEQS.map((seq, i) => ({ seq, url: URLS[i] }) as StoredPage) });
  useAnalysis.setState({ analysis: analysis(), method: 'minhash', thresholds: DEFAULT_THRESHOLDS });
  useLabels.setState({
    datasetId: 1,
    labels: new Map(),
    queue: [],
    position: 0,
    history: [],
    references: new Set(),
    blind: false,
  });
});
afterEach(cleanup);

const current = () => screen.getByTestId('pr-current').textContent ?? '';
const curves = () => document.querySelectorAll('path[data-curve]').length;

describe('precision–recall pane names the chosen method (issue #24, item 2)', () => {
  it('MinHash: its threshold in the operating point, its own curve beside the papers’ four', () => {
    render(<PrPane />);
    // Truth Jaccard ≥ 0.8: (0,1) and (0,2) are duplicates; MinHash at 0.80 accepts exactly those.
    expect(current()).toBe('MinHash, Jaccard ≥ 0.80: precision 100.0%, recall 100.0%');
    expect(curves()).toBe(5);
    expect(document.querySelector('ul.legend')).toHaveTextContent(/MinHash \(LSH\), Jaccard varies/);
    act(() => useAnalysis.getState().setThreshold('jaccard', 0.9));
    expect(current()).toBe('MinHash, Jaccard ≥ 0.90: precision 100.0%, recall 50.0%');
  });

  it('RP + HM: C and D named, the papers’ curves only; SimHash: its Hamming distance', () => {
    act(() => useAnalysis.setState({ method: 'rp-hm' }));
    render(<PrPane />);
    expect(current()).toMatch(/^RP \+ HM, C = 1\.000, D = 0\.022: precision \d+\.\d%, recall \d+\.\d%$/);
    expect(curves()).toBe(4);
    act(() => useAnalysis.setState({ method: 'simhash' }));
    expect(current()).toMatch(/^SimHash, Hamming ≤ 4: precision/);
    expect(curves()).toBe(5);
  });

  it('no accepted pair is said in words, and no point is plotted', () => {
    act(() => useAnalysis.getState().setThreshold('jaccard', 0.99));
    render(<PrPane />);
    expect(current()).toBe(
      'MinHash, Jaccard ≥ 0.99: no pair accepted, so precision is undefined; recall 0.0%',
    );
    expect(document.querySelector('circle.operating-point')).toBeNull();
  });

  it('0 candidate pairs and 0 labels: said in words, no chart', () => {
    act(() => useAnalysis.setState({ analysis: analysis([]) }));
    render(<PrPane />);
    expect(screen.getByTestId('pr-empty')).toHaveTextContent(/^No candidate pairs: .*4 pages/);
    expect(screen.getByTestId('pr-empty')).toHaveTextContent('MinHash, Jaccard ≥ 0.80');
    expect(document.querySelector('svg')).toBeNull();
    expect(screen.queryByText(/precision 100\.0%, recall 0\.0%/)).toBeNull();
    expect(screen.getByTestId('pr-labels')).toHaveTextContent(/^No labels yet/);
  });
});

describe('label estimates beside the labelling pane (issue #24, item 7)', () => {
  it('follow each label, named by method and thresholds, the same line in both panes', () => {
    render(
      <>
        <LabelView />
        <PrPane />
      </>,
    );
    expect(screen.getByTestId('label-estimates')).toHaveTextContent(
      /^No labels yet: .*MinHash, Jaccard ≥ 0\.80/,
    );
    setLabels([label(10, 11, 'dup')]);
    expect(screen.getByTestId('label-estimates')).toHaveTextContent(
      /^From 1 label, MinHash, Jaccard ≥ 0\.80: precision 100% \[\d+–100%\], recall 100% \[\d+–100%\]/,
    );
    // (2,3) at Jaccard 0.3 is not accepted: a duplicate label there halves recall.
    setLabels([label(10, 11, 'dup'), label(12, 13, 'dup')]);
    const line = screen.getByTestId('label-estimates').textContent;
    expect(line).toMatch(/^From 2 labels, .*recall 50% \[\d+–\d+%\]/);
    expect(screen.getByTestId('pr-labels').textContent).toBe(line);
    act(() => useAnalysis.getState().setThreshold('jaccard', 0.3));
    expect(screen.getByTestId('label-estimates')).toHaveTextContent(/Jaccard ≥ 0\.30: .*recall 100%/);
  });

  it('labels without a sampling design are counted, not estimated from', () => {
    render(<LabelView />);
    setLabels([{ ...label(10, 11, 'dup'), pi: NaN }]);
    expect(screen.getByTestId('label-estimates')).toHaveTextContent(/^1 label of pairs picked by hand/);
  });

  it('is one memoised computation: the same inputs give the same object', () => {
    const { analysis: a, method, thresholds } = useAnalysis.getState();
    const labels = new Map([[pairKey(10, 11), label(10, 11, 'dup')]]);
    const first = labelEstimates(a, labels, method, thresholds);
    expect(labelEstimates(a, labels, method, thresholds)).toBe(first);
    expect(labelEstimates(a, new Map(labels), method, thresholds)).not.toBe(first);
  });
});

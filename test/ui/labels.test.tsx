// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDS } from '../../src/core/candidates/methods';
import { db, type StoredAnalysis, type StoredLabel, type StoredPage } from '../../src/db/schema';
import { useAnalysis } from '../../src/state/analysis';
import { useLabels } from '../../src/state/labels';
import { usePages } from '../../src/state/pages';
import { LabelView } from '../../src/ui/labels/LabelView';
import { PrPane } from '../../src/ui/pr/PrPane';
import { pairKey } from '../../src/core/eval/pair-key';
import { analysisOfRows } from './analysis-fixture';

/** Four pages whose seqs are not their indices; pairs (0,1) alike, (2,3) not, by Jaccard. */
const SEQS = [10, 11, 12, 13];
const URLS = ['http://x.test/a', 'http://x.test/a?,copy', 'http://x.test/b', 'http://x.test/c'];

function analysis(): StoredAnalysis {
  return analysisOfRows(SEQS, [
    [0, 1, 0.95],
    [0, 2, 0.5],
    [1, 2, 0.45],
    [2, 3, 0.3],
  ]);
}

const label = (a: number, b: number, value: StoredLabel['label'], at: string): StoredLabel => ({
  datasetId: 1,
  a,
  b,
  label: value,
  strategy: 'random',
  pi: 1,
  at,
});

beforeEach(async () => {
  localStorage.clear();
  await db().labels.clear();
  const rows = [label(10, 11, 'dup', '2024-05-01T10:00:00Z'), label(12, 13, 'dup', '2024-05-01T11:00:00Z')];
  await db().labels.bulkPut(rows);
  usePages.setState({
    datasetId: 1,
    pages: SEQS.map((seq, i) => ({ seq, url: URLS[i] }) as StoredPage),
  });
  useAnalysis.setState({
    analysis: analysis(),
    method: 'minhash',
    thresholds: DEFAULT_THRESHOLDS,
    mode: 'components',
  });
  useLabels.setState({
    datasetId: 1,
    labels: new Map(rows.map((r) => [pairKey(r.a, r.b), r])),
    queue: [],
    position: 0,
    history: [],
    references: new Set(),
    blind: false,
  });
});
afterEach(cleanup);

describe('labels list', () => {
  it('corrects a mistyped label from the keyboard; the estimate follows at once; delete removes one', async () => {
    render(
      <>
        <LabelView />
        <PrPane />
      </>,
    );
    // (12, 13) was labelled a duplicate by mistake: MinHash at Jaccard 0.8 rejects it, so recall is 50%.
    await waitFor(() => expect(screen.getByTestId('pr-labels')).toHaveTextContent(/recall 50%/));
    const list = screen.getByRole('listbox', { name: 'Labels' });
    const options = within(list).getAllByRole('option');
    expect(options).toHaveLength(2);
    // Newest first, URLs through the shared Url component (full URL in the title).
    expect(options[0].querySelector('.url')).toHaveAttribute('title', 'http://x.test/b');
    expect(options[1].querySelectorAll('.url')[1]).toHaveAttribute('title', 'http://x.test/a?,copy');
    expect(list).toHaveAttribute('tabindex', '0');
    expect(list.querySelectorAll('[tabindex]')).toHaveLength(0);

    list.focus();
    fireEvent.keyDown(list, { key: 'n' });
    await waitFor(() => expect(screen.getByTestId('pr-labels')).toHaveTextContent(/recall 100%/));
    expect(within(options[0]).getByText('not')).toBeInTheDocument();
    await waitFor(async () => expect((await db().labels.get([1, 12, 13]))?.label).toBe('not'));
    // The queue's window listener did not take the key too (no queue, and no third label appeared).
    expect(useLabels.getState().labels.size).toBe(2);

    fireEvent.keyDown(list, { key: 'ArrowDown' });
    expect(list.getAttribute('aria-activedescendant')).toBe(within(list).getAllByRole('option')[1].id);
    fireEvent.keyDown(list, { key: 'Delete' });
    await waitFor(() => expect(within(list).getAllByRole('option')).toHaveLength(1));
    await waitFor(async () => expect(await db().labels.get([1, 10, 11])).toBeUndefined());
  });

  it('filters by label value and by text in either URL', () => {
    render(<LabelView />);
    const list = () => screen.queryByRole('listbox', { name: 'Labels' });
    fireEvent.change(screen.getByLabelText('Filter labels by URL'), { target: { value: '?,copy' } });
    expect(within(list()!).getAllByRole('option')).toHaveLength(1);
    expect(screen.getByTestId('labels-count')).toHaveTextContent('1 of 2 labels');
    fireEvent.change(screen.getByLabelText('Filter labels by URL'), { target: { value: '' } });
    fireEvent.change(screen.getByLabelText('Show labels'), { target: { value: 'not' } });
    expect(list()).toBeNull();
    expect(screen.getByText('No label matches the filter.')).toBeInTheDocument();
  });
});

describe('labels import', () => {
  it('imports an exported CSV whose URL holds a comma into the right pair, and says what it skipped', async () => {
    const { encodeLabelsCsv } = await import('../../src/core/eval/labels-codec');
    const csv =
      encodeLabelsCsv([
        {
          a: 99,
          b: 98,
          urlA: 'http://x.test/a?,copy',
          urlB: 'http://x.test/c',
          label: 'not',
          strategy: 'stratified',
          pi: 0.5,
          at: '2024-05-02T00:00:00Z',
        },
      ]) + ',,http://x.test/a,http://x.test/b,dpu,random,1,\n';
    render(<LabelView />);
    const input = screen.getByTestId('labels-file');
    fireEvent.change(input, { target: { files: [new File([csv], 'labels.csv')] } });
    await screen.findByText(/Imported 1 new label; 1 row skipped: row 2 \(line 3\): label "dpu"/);
    // Placed by URL (seqs 11 and 13 here), not by the exporting dataset's seqs 98/99.
    expect(useLabels.getState().labels.get(pairKey(11, 13))).toMatchObject({ label: 'not', pi: 0.5 });
    expect(useLabels.getState().labels.size).toBe(3);
  });
});

describe('blind labelling', () => {
  it('hides the scores until the pair has a label, and is remembered', async () => {
    useLabels.setState({ queue: [{ pair: 1, strategy: 'random', pi: 0.5 }], position: 0 });
    render(<LabelView />);
    const measures = () => document.querySelector('.pair-measures')!.textContent ?? '';
    expect(measures()).toMatch(/Jaccard 0\.500/);
    fireEvent.click(screen.getByLabelText('blind labelling'));
    expect(measures()).not.toMatch(/Jaccard|cosine/);
    expect(measures()).toMatch(/scores hidden until labelled/);
    expect(localStorage.getItem('dedup-workbench.blind-labelling')).toBe('1');
    await act(async () => {
      fireEvent.keyDown(document.body, { key: 'd' });
    });
    await waitFor(() => expect(useLabels.getState().labels.get(pairKey(10, 12))?.label).toBe('dup'));
    fireEvent.keyDown(document.body, { key: 'ArrowLeft' });
    // Labelled now: its scores are shown.
    expect(measures()).toMatch(/Jaccard 0\.500/);
    expect(measures()).toMatch(/labelled: dup/);
  });
});

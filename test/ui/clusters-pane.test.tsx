// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FormatId } from '../../src/core/types';
import type { Dataset, StoredAnalysis, StoredPage } from '../../src/db/schema';
import { pairTable } from '../core/clusters/pair-table';

vi.mock('../../src/workers/client', () => ({ Comlink: { proxy: <T,>(f: T) => f } }));
const { ClustersPane } = await import('../../src/ui/clusters/ClustersPane');
const { useAnalysis } = await import('../../src/state/analysis');
const { usePages } = await import('../../src/state/pages');
const { useDatasets } = await import('../../src/state/datasets');

const dataset = (format: FormatId): Dataset =>
  ({
    id: 1,
    name: 'd',
    fileName: 'd',
    bytes: 1,
    format,
    compressed: false,
    status: 'ready',
    pages: 3,
  }) as Dataset;

const page = (seq: number, textLength: number): StoredPage =>
  ({
    datasetId: 1,
    seq,
    url: `http://h.test/p${seq}.html`,
    normUrl: `http://h.test/p${seq}.html`,
    host: 'h.test',
    status: 200,
    recordType: textLength ? 'response' : 'row',
    title: `Page ${seq}`,
    textLength,
    fingerprint: `f${seq}`,
  }) as unknown as StoredPage;

afterEach(() => {
  cleanup();
  useAnalysis.setState({ analysis: null, selectedClusterId: null });
  usePages.setState({ pages: [], loading: false });
  useDatasets.setState({ datasets: [], selectedId: null });
});

describe('clusters pane', () => {
  it('a URL-only dataset says there is no text to compare and offers no computation', () => {
    for (const format of ['access-log', 'crawl-log', 'cdx', 'url-list'] as const) {
      useDatasets.setState({ datasets: [dataset(format)], selectedId: 1 });
      usePages.setState({ pages: [0, 1, 2].map((s) => page(s, 0)), loading: false, datasetId: 1 });
      render(<ClustersPane />);
      expect(screen.getByTestId('clusters-no-text')).toHaveTextContent(
        /No page text to compare: this dataset lists URLs \(3\) without their documents.*DUST rules still work/,
      );
      expect(screen.queryByRole('button', { name: 'Compute signatures' })).toBeNull();
      expect(screen.queryByText(/0 of 0 pages/)).toBeNull();
      cleanup();
    }
  });

  it('a crawl with documents but fewer than 2 pages with text says how many have text, not that it lacks documents', () => {
    for (const format of ['warc', 'arc', 'jsonl'] as const) {
      useDatasets.setState({ datasets: [dataset(format)], selectedId: 1 });
      usePages.setState({ pages: [page(0, 100), page(1, 0), page(2, 0)], loading: false, datasetId: 1 });
      render(<ClustersPane />);
      const note = screen.getByTestId('clusters-no-text');
      expect(note).toHaveTextContent(/1 of this dataset's 3 pages has text .*at least 2 pages with text/);
      expect(note).not.toHaveTextContent(/without their documents|access log/);
      expect(screen.queryByRole('button', { name: 'Compute signatures' })).toBeNull();
      cleanup();
    }
    useDatasets.setState({ datasets: [dataset('warc')], selectedId: 1 });
    usePages.setState({ pages: [page(0, 0)], loading: false, datasetId: 1 });
    render(<ClustersPane />);
    expect(screen.getByTestId('clusters-no-text')).toHaveTextContent(/0 of this dataset's 1 page have text/);
  });

  it('counts the pages with text only once they are loaded (never "0 pages with text" while they load)', () => {
    useDatasets.setState({ datasets: [dataset('warc')], selectedId: 1 });
    usePages.setState({ pages: [], loading: true, datasetId: 1 });
    render(<ClustersPane />);
    expect(screen.getByText(/for this dataset's pages with text, in the background/)).toBeTruthy();
    expect(screen.queryByText(/\b0 pages with text/)).toBeNull();
    cleanup();
    usePages.setState({ pages: [page(0, 100), page(1, 80), page(2, 0)], loading: false, datasetId: 1 });
    render(<ClustersPane />);
    expect(screen.getByText(/for this dataset's 2 pages with text, in the background/)).toBeTruthy();
  });

  it('the cluster list is one tab stop: arrows move, Enter opens (the selection the URL keeps)', () => {
    twoClusters();
    render(<ClustersPane />);
    const list = screen.getByRole('listbox', { name: 'Clusters' });
    expect(list.tabIndex).toBe(0);
    const options = within(list).getAllByRole('option');
    expect(options).toHaveLength(2);
    // No focusable control per cluster: Tab passes the list in one step.
    expect(list.querySelectorAll('button, [tabindex]:not([tabindex="-1"])')).toHaveLength(0);
    fireEvent.keyDown(list, { key: 'ArrowDown' });
    expect(useAnalysis.getState().selectedClusterId).toBeNull();
    fireEvent.keyDown(list, { key: 'ArrowDown' });
    expect(list.getAttribute('aria-activedescendant')).toBe('cluster-1');
    fireEvent.keyDown(list, { key: 'Enter' });
    // The selection is the cluster's id (the seq of its centre), not its row.
    expect(useAnalysis.getState().selectedClusterId).toBe(3);
    expect(options[1]).toHaveAttribute('data-cluster', '3');
    expect(within(list).getAllByRole('option')[1]).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByTestId('cluster-summary')).toHaveTextContent(/^2 clusters · 5 of 5 pages/);
    expect(screen.getByRole('button', { name: 'Export clusters (CSV)' })).toBeInTheDocument();
  });

  it('opening a cluster brings its detail into view: Enter moves the keyboard there, a click leaves it on the list', () => {
    twoClusters();
    // jsdom lays nothing out and has no scrollIntoView: record which element asked to be shown.
    const scrolled: Element[] = [];
    Element.prototype.scrollIntoView = function (this: Element) {
      scrolled.push(this);
    };
    // A stand-in for ClusterDetail, which App draws below the panes while a cluster is selected.
    function Detail() {
      const selected = useAnalysis((s) => s.selectedClusterId);
      return selected === null ? null : (
        <section id="cluster-detail" tabIndex={-1} aria-label="Cluster detail" />
      );
    }
    render(
      <>
        <ClustersPane />
        <Detail />
      </>,
    );
    const list = screen.getByRole('listbox', { name: 'Clusters' });
    list.focus();
    fireEvent.click(within(list).getAllByRole('option')[1]);
    expect(useAnalysis.getState().selectedClusterId).toBe(3);
    const detail = screen.getByRole('region', { name: 'Cluster detail' });
    expect(scrolled.at(-1)).toBe(detail);
    expect(document.activeElement).toBe(list);
    // A second click on the selected cluster closes it: nothing to scroll to.
    fireEvent.click(within(list).getAllByRole('option')[1]);
    expect(useAnalysis.getState().selectedClusterId).toBeNull();
    // The keyboard cursor stayed on the closed cluster: ↑ moves it to the first (scrolled to in the list).
    fireEvent.keyDown(list, { key: 'ArrowUp' });
    expect(list.getAttribute('aria-activedescendant')).toBe('cluster-0');
    const n = scrolled.length;
    fireEvent.keyDown(list, { key: 'Enter' });
    expect(useAnalysis.getState().selectedClusterId).toBe(0);
    expect(scrolled.length).toBe(n + 1);
    expect(document.activeElement).toBe(screen.getByRole('region', { name: 'Cluster detail' }));
    delete (Element.prototype as Partial<Element>).scrollIntoView;
  });
});

/** Two clusters under MinHash / star: {0, 1, 2} around 0, and {3, 4}. */
function twoClusters() {
  usePages.setState({ pages: [0, 1, 2, 3, 4].map((s) => page(s, 100)), loading: false, datasetId: 1 });
  const pairs = pairTable([
    [0, 1, 0.95],
    [0, 2, 0.9],
    [3, 4, 0.85],
  ]);
  const analysis = {
    datasetId: 1,
    paramsKey: 'k',
    created: 'now',
    seqs: Float64Array.from([0, 1, 2, 3, 4]),
    n: 5,
    pairs,
    elapsedMs: 1,
    maxD: 0.1,
  } as unknown as StoredAnalysis;
  useAnalysis.setState({ analysis, selectedClusterId: null, method: 'minhash', mode: 'star' });
}

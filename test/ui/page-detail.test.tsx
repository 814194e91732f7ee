// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { db, type StoredContent, type StoredPage } from '../../src/db/schema';
import { writeBatch } from '../../src/db/page-writes';
import { newDataset } from '../../src/db/queries';
import { usePages } from '../../src/state/pages';
import { PageDetail } from '../../src/ui/PageDetail';
import { TEXT_STEP } from '../../src/ui/PageText';
import { PagesTable } from '../../src/ui/PagesTable';
import { virtualWindow } from '../../src/ui/VirtualList';

const LINKS = 200_000;
const linkUrl = (i: number) => `https://big.example/p${i}`;

function page(datasetId: number, seq: number, url: string, title: string, textLength: number): StoredPage {
  return {
    datasetId,
    seq,
    url,
    normUrl: url,
    host: new URL(url).host,
    status: 200,
    statuses: [200],
    mime: 'text/html',
    sizeMin: 1000,
    sizeMax: 1000,
    hits: 1,
    fetchedAt: '',
    recordType: 'response',
    title,
    textLength,
    fingerprint: '0123456789abcdef',
    digest: '',
    charset: 'utf-8',
    revisitOf: -1,
    offset: 0,
    note: '',
  };
}

/**
 * A sitemap-like page (200,000 outlinks, 2 MB of text with markup in it), and a few ordinary pages, one
 * of them (seq 2) the target of one of the big page's links.
 */
async function storeHostileDataset(): Promise<number> {
  const d = db();
  const id = await d.datasets.add(
    newDataset({ name: 'big.warc', fileName: 'big.warc', bytes: 1, format: 'warc', compressed: false }),
  );
  await d.datasets.update(id, { status: 'ready', pages: 3 });
  const outlinks = Array.from({ length: LINKS }, (_, i) => linkUrl(i));
  const text = '<img src=x onerror=alert(1)> words of a long page '.repeat(40_000); // 2 MB
  const pages = [
    page(id, 0, 'https://big.example/sitemap', 'Huge sitemap', text.length),
    page(id, 1, 'https://big.example/a', 'Ordinary A', 5),
    page(id, 2, linkUrl(7), 'Linked page seven', 5),
  ];
  const contents: StoredContent[] = [
    {
      datasetId: id,
      seq: 0,
      text,
      outlinks,
      rawOutlinks: outlinks,
      headers: [['Content-Type', 'text/html']],
    },
    { datasetId: id, seq: 1, text: 'hello', outlinks: [], rawOutlinks: [], headers: [] },
    { datasetId: id, seq: 2, text: 'seven', outlinks: [], rawOutlinks: [], headers: [] },
  ];
  await writeBatch(
    d,
    id,
    pages.map((page, i) => ({ page, content: contents[i] })),
  );
  return id;
}

const outlinkRows = () => screen.getByTestId('outlinks').querySelectorAll('[role="option"]');

beforeEach(async () => {
  const d = db();
  await Promise.all([d.datasets.clear(), d.pageChunks.clear(), d.chunks.clear()]);
  usePages.setState({ datasetId: null, pages: [], selectedSeq: null, content: null, revisited: null });
});
afterEach(cleanup);

describe('page detail of a hostile page', () => {
  async function openBigPage() {
    const id = await storeHostileDataset();
    await act(() => usePages.getState().load(id));
    render(
      <>
        <PagesTable />
        <PageDetail />
      </>,
    );
    fireEvent.click(await screen.findByText('Huge sitemap'));
    await waitFor(() => expect(screen.getByTestId('outlink-count')).toHaveTextContent('200,000 outlinks'), {
      timeout: 10_000,
    });
  }

  it('renders a window of the 200,000 outlinks, says how many there are, and caps the 2 MB text', async () => {
    await openBigPage();
    expect(outlinkRows().length).toBeGreaterThan(0);
    expect(outlinkRows().length).toBeLessThan(500);
    expect(outlinkRows()[0]).toHaveTextContent(linkUrl(0));

    const text = screen.getByTestId('page-text');
    expect(text.textContent).toHaveLength(TEXT_STEP);
    expect(screen.getByTestId('text-heading')).toHaveTextContent(
      'Text (2,000,000 characters, first 20,000 shown)',
    );
    fireEvent.click(screen.getByRole('button', { name: /Show more/ }));
    expect(screen.getByTestId('page-text').textContent).toHaveLength(2 * TEXT_STEP);
    expect(screen.getByRole('button', { name: /Show all 2,000,000 characters \(large/ })).toBeInTheDocument();
    // Crawled markup stays text.
    expect(screen.getByTestId('page-text').textContent).toContain('<img src=x onerror=alert(1)>');
    expect(document.querySelectorAll('img, script')).toHaveLength(0);

    fireEvent.click(screen.getByText('Headers (1)'));
    const headers = await screen.findByRole('listbox', { name: 'Headers' });
    expect(within(headers).getByRole('option')).toHaveTextContent('Content-Type: text/html');
  });

  it('is one keyboard stop whose End key reaches the last outlink, still with few rows in the DOM', async () => {
    await openBigPage();
    const list = screen.getByRole('listbox', { name: 'Outlinks' });
    expect(list).toHaveAttribute('tabindex', '0');
    expect(Array.from(outlinkRows()).every((r) => !r.hasAttribute('tabindex'))).toBe(true);
    fireEvent.keyDown(list, { key: 'ArrowDown' });
    expect(list).toHaveAttribute('aria-activedescendant', 'outlink-0');
    fireEvent.keyDown(list, { key: 'End' });
    expect(list).toHaveAttribute('aria-activedescendant', `outlink-${LINKS - 1}`);
    const last = document.getElementById(`outlink-${LINKS - 1}`);
    expect(last).toHaveTextContent(linkUrl(LINKS - 1));
    expect(last).toHaveTextContent('200,000');
    expect(outlinkRows().length).toBeLessThan(500);
    fireEvent.keyDown(list, { key: 'ArrowUp' });
    expect(list).toHaveAttribute('aria-activedescendant', `outlink-${LINKS - 2}`);
  });

  it('filters the outlinks and opens a linked page that the crawl holds with Enter', async () => {
    await openBigPage();
    fireEvent.change(screen.getByLabelText('Filter outlinks'), { target: { value: 'big.example/p7' } });
    // p7, p70…p79, p700…p799, p7000…p7999, p70000…p79999: 1 + 10 + 100 + 1,000 + 10,000
    await waitFor(() =>
      expect(screen.getByTestId('outlink-count')).toHaveTextContent('11,111 of 200,000 outlinks'),
    );
    expect(outlinkRows().length).toBeLessThan(500);
    const list = screen.getByRole('listbox', { name: 'Outlinks' });
    const first = outlinkRows()[0];
    expect(first).toHaveTextContent(linkUrl(7));
    expect(within(first as HTMLElement).getByText('in crawl')).toBeInTheDocument();
    fireEvent.keyDown(list, { key: 'ArrowDown' });
    fireEvent.keyDown(list, { key: 'Enter' });
    await waitFor(() => expect(screen.getByTestId('detail-title')).toHaveTextContent('Linked page seven'));
    expect(screen.getByTestId('outlink-count')).toHaveTextContent('0 outlinks');
  });
});

describe('pages table on the same virtual list', () => {
  it('renders a window of 3,000 pages and moves through them with the keyboard', async () => {
    const d = db();
    const id = await d.datasets.add(
      newDataset({ name: 'many', fileName: 'many', bytes: 1, format: 'warc', compressed: false }),
    );
    const n = 3_000;
    for (let at = 0; at < n; at += 500)
      await writeBatch(
        d,
        id,
        Array.from({ length: 500 }, (_, k) => ({
          page: page(id, at + k, `https://many.example/${at + k}`, `Page ${at + k}`, 10),
          content: { seq: at + k, text: '', outlinks: [], rawOutlinks: [], headers: [] },
        })),
      );
    await act(() => usePages.getState().load(id));
    render(<PagesTable />);
    expect(screen.getByTestId('page-count')).toHaveTextContent('3,000 of 3,000 pages');
    const grid = screen.getByRole('grid', { name: 'Pages' });
    expect(grid).toHaveAttribute('aria-rowcount', '3000');
    expect(grid.querySelectorAll('.tr').length).toBeLessThan(100);
    fireEvent.keyDown(grid, { key: 'ArrowDown' });
    await waitFor(() => expect(usePages.getState().selectedSeq).toBe(0));
    fireEvent.keyDown(grid, { key: 'End' });
    await waitFor(() => expect(usePages.getState().selectedSeq).toBe(n - 1));
    expect(grid).toHaveAttribute('aria-activedescendant', `page-row-${n - 1}`);
    expect(document.getElementById(`page-row-${n - 1}`)).toHaveClass('tr', 'selected');
    expect(grid.querySelectorAll('.tr').length).toBeLessThan(100);
  });
});

describe('virtualWindow', () => {
  it('renders the rows in view plus the overscan', () => {
    const w = virtualWindow(1000, 20, 400, 200, 5);
    expect([w.first, w.last]).toEqual([15, 35]);
    expect(w.sizer).toBe(20_000);
    expect(w.top(20)).toBe(400);
    expect(w.scrollFor(50, 400)).toBe(50 * 20 + 20 - 200); // below: bottom-aligned
    expect(w.scrollFor(3, 400)).toBe(60); // above: top-aligned
    expect(w.scrollFor(22, 400)).toBe(400); // in view: no move
  });

  it('compresses a list taller than browsers lay out, and still reaches its last row', () => {
    const count = 5_000_000;
    const row = 22;
    const height = 300;
    const start = virtualWindow(count, row, 0, height, 0);
    expect(start.sizer).toBeLessThan(count * row);
    const end = virtualWindow(count, row, start.sizer - height, height, 0);
    expect(end.last).toBe(count);
    // The last row sits at the bottom of the viewport.
    expect(end.top(count - 1)).toBeCloseTo(start.sizer - row, 6);
    // Bringing the last row into view from the top scrolls to the end of the compressed range.
    expect(start.scrollFor(count - 1, 0)).toBeCloseTo(start.sizer - height, 6);
  });
});

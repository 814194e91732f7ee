// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// jsdom has no Worker: run the same job in-process (the real worker is exercised by the e2e tests).
vi.mock('../../src/workers/client', async () => {
  const { runIngest } = await import('../../src/workers/ingest-job');
  return {
    Comlink: { proxy: <T,>(f: T) => f },
    startIngestWorker: () => {
      let cancelled = false;
      return {
        api: {
          run: (req: Parameters<typeof runIngest>[0], onProgress: Parameters<typeof runIngest>[1]) =>
            runIngest(req, onProgress, () => cancelled),
          cancel: () => {
            cancelled = true;
          },
        },
        terminate: () => {},
      };
    },
  };
});

const { App } = await import('../../src/ui/App');
const { db } = await import('../../src/db/schema');
const { newDataset } = await import('../../src/db/queries');
const { useDatasets } = await import('../../src/state/datasets');
const { usePages } = await import('../../src/state/pages');

const FIXTURES = join(import.meta.dirname, '../fixtures');
const fixture = (name: string) => new File([readFileSync(join(FIXTURES, name))], name);

function pickFile(file: File) {
  const input = screen.getByTestId('file-input') as HTMLInputElement;
  fireEvent.change(input, { target: { files: [file] } });
}

beforeEach(async () => {
  // Clear rather than delete the database: effects of the previous test may still be reading it.
  const d = db();
  await Promise.all([d.datasets.clear(), d.pageChunks.clear(), d.chunks.clear(), d.analyses.clear()]);
  useDatasets.setState({ datasets: [], selectedId: null, job: null, notices: [] });
});
afterEach(cleanup);

describe('workbench shell', () => {
  it('shows the empty state, then a picked WARC as a dataset with its pages', async () => {
    render(<App />);
    expect(screen.getByText(/Drop a crawl file anywhere/)).toBeInTheDocument();
    pickFile(fixture('tiny.warc.gz'));
    const list = await screen.findByRole('complementary', { name: 'Datasets' });
    await waitFor(() => expect(within(list).getByText('ready')).toBeInTheDocument(), { timeout: 10_000 });
    await waitFor(() => expect(screen.getByTestId('page-count')).toHaveTextContent(/^\d+ of \d+ pages$/));
    expect(screen.getByRole('region', { name: 'Duplicate clusters' })).toHaveTextContent(
      'No signatures computed yet',
    );
    expect(screen.getByRole('region', { name: 'DUST rules' })).toHaveTextContent('No rules mined yet');
    fireEvent.click(screen.getByText('Tiny page A'));
    await waitFor(() => expect(screen.getByTestId('page-text').textContent).not.toBe(''));
    expect(screen.getByTestId('detail-title')).toHaveTextContent('Tiny page A');
  });

  it('shows the dataset as ready in the same update that ends the job', async () => {
    render(<App />);
    // What the list says of the job's dataset at the moment the job ends (before it is read again).
    const seen: string[] = [];
    const stop = useDatasets.subscribe((st, prev) => {
      if (prev.job && !st.job) seen.push(st.datasets.find((x) => x.id === st.selectedId)?.status ?? 'absent');
    });
    pickFile(fixture('tiny.warc.gz'));
    await waitFor(() => expect(seen).toHaveLength(1), { timeout: 10_000 });
    stop();
    expect(seen).toEqual(['ready']);
  });

  it('renders hostile titles and text as text: no script or img element is created', async () => {
    render(<App />);
    pickFile(fixture('hostile.warc.gz'));
    const list = await screen.findByRole('complementary', { name: 'Datasets' });
    await waitFor(() => expect(within(list).getByText('ready')).toBeInTheDocument(), { timeout: 10_000 });
    await waitFor(() => expect(screen.getByTestId('page-count')).toHaveTextContent(/of [1-9]/), {
      timeout: 10_000,
    });
    const row = await screen.findByText((t) => t.includes('<script>alert(1)</script>'), { selector: '.td' });
    fireEvent.click(row);
    await waitFor(() =>
      expect(screen.getByTestId('detail-title').textContent).toContain('<script>alert(1)</script>'),
    );
    await waitFor(() =>
      expect(screen.getByTestId('page-text').textContent).toContain('<img src=x onerror=alert(1)>'),
    );
    expect(document.querySelectorAll('main script, main img')).toHaveLength(0);
  });

  it('rejects an image dropped by mistake, names it, and creates no dataset', async () => {
    render(<App />);
    pickFile(fixture('image.png'));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(/No dataset created\. image\.png: this is a PNG image, not a crawl file/);
    expect(await db().datasets.count()).toBe(0);
  });

  it('keeps the good records of a truncated file and marks the dataset partial with the error', async () => {
    render(<App />);
    pickFile(fixture('truncated.warc.gz'));
    await waitFor(() => expect(screen.getAllByText('partial').length).toBeGreaterThan(0), {
      timeout: 10_000,
    });
    const alerts = screen.getAllByRole('alert');
    expect(
      alerts.some((a) => /truncated\.warc\.gz at byte [\d,]+: truncated gzip/.test(a.textContent ?? '')),
    ).toBe(true);
    const [ds] = await db().datasets.toArray();
    expect(ds.status).toBe('partial');
    expect(ds.pages).toBeGreaterThan(0);
  });

  it('reads a whole-file gzip WARC by default, with one note saying so', async () => {
    render(<App />);
    pickFile(fixture('tiny-single-member.warc.gz'));
    await waitFor(async () => expect((await db().datasets.toArray())[0]?.status).toBe('ready'), {
      timeout: 10_000,
    });
    const notes = await screen.findAllByRole('status');
    expect(notes.some((n) => /gzipped as a whole/.test(n.textContent ?? ''))).toBe(true);
    expect(screen.queryByText('Read anyway')).toBeNull();
  });

  it('shows a dataset left mid-ingest by a reload as interrupted', async () => {
    await db().datasets.add(
      newDataset({
        name: 'left.warc',
        fileName: 'left.warc',
        bytes: 10,
        format: 'warc',
        compressed: false,
        heartbeat: Date.now() - 60_000,
      }),
    );
    render(<App />);
    await waitFor(() => expect(screen.getAllByText('interrupted').length).toBeGreaterThan(0));
    expect(screen.getByRole('alert')).toHaveTextContent(/left\.warc: the read was interrupted/);
  });

  it('a dataset being read shows its count of pages stored, not its pages (loaded once the read ends)', async () => {
    const id = await db().datasets.add(
      newDataset({
        name: 'reading.warc',
        fileName: 'reading.warc',
        bytes: 10,
        format: 'warc',
        compressed: false,
      }),
    );
    await db().datasets.update(id, { pages: 1500 });
    useDatasets.setState({ selectedId: id });
    render(<App />);
    await screen.findByTestId('being-read');
    // findBy: under load the header's count was seen to land a render after the note (1 run in 3).
    expect(await screen.findByText(/1,500 pages stored so far/)).toBeInTheDocument();
    // No pages loaded, no pane offering to compute over a dataset still growing.
    expect(usePages.getState().datasetId).toBeNull();
    expect(screen.queryByRole('button', { name: 'Compute signatures' })).toBeNull();
    expect(screen.queryByLabelText('Filter by URL or title')).toBeNull();
    // The read ends: the pages are loaded and the panes come.
    await db().datasets.update(id, { status: 'ready' });
    await waitFor(() => expect(usePages.getState().datasetId).toBe(id));
    expect(screen.queryByTestId('being-read')).toBeNull();
  });
});

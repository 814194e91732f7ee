// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, expect, it, vi } from 'vitest';
import type { IngestProgress } from '../../src/core/types';

// jsdom has no Worker; this test starts no job (it sets the store's job as a read would).
vi.mock('../../src/workers/client', () => ({
  Comlink: { proxy: <T,>(f: T) => f },
  startIngestWorker: () => {
    throw new Error('no worker in this test');
  },
}));

// The sidebar, counted: it stands for the workbench around the progress panel.
let sidebarRenders = 0;
vi.mock('../../src/ui/Sidebar', async (actual) => {
  const m = await actual<typeof import('../../src/ui/Sidebar')>();
  return {
    Sidebar: () => {
      sidebarRenders++;
      return m.Sidebar();
    },
  };
});

const { App } = await import('../../src/ui/App');
const { useDatasets } = await import('../../src/state/datasets');

afterEach(cleanup);

const progress = (bytesRead: number): IngestProgress => ({
  bytesRead,
  totalBytes: 1000,
  bytesDecoded: bytesRead,
  records: bytesRead,
  pages: bytesRead,
  elapsedMs: bytesRead,
});

it('a read’s progress renders its panel, not the workbench around it', async () => {
  useDatasets.setState({ datasets: [], selectedId: null, job: null, notices: [] });
  render(<App />);
  const job = {
    fileName: 'crawl.warc.gz',
    fileSize: 1000,
    startedAt: Date.now(),
    progress: null,
    phase: 'running' as const,
    datasetId: null,
    pagesRead: 0,
  };
  act(() => useDatasets.setState({ job }));
  const before = sidebarRenders;
  for (let i = 1; i <= 20; i++)
    act(() => useDatasets.setState({ job: { ...job, progress: progress(i * 50) } }));
  // The panel shows the last progress…
  expect(screen.getByText(/crawl\.warc\.gz/)).toBeTruthy();
  expect(document.querySelector('.ingest')?.textContent).toMatch(/100%|1,000|1000/);
  // …and the sidebar was not drawn again for any of the 20.
  expect(sidebarRenders - before).toBe(0);
});

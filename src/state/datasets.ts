import type { SampleRequest } from '../workers/sample-read';
import { create } from 'zustand';
import type { ChosenColumns, IngestProgress } from '../core/types';
import {
  deleteDataset,
  listDatasets,
  markInterrupted,
  rebaseLogPages,
  renameDataset,
  watchDatasets,
} from '../db/queries';
import { removeOrphans } from '../db/orphans';
import { db, type Dataset } from '../db/schema';
import { embeddedSampleBytes } from '../workers/embedded-sample';
import type { IngestResult } from '../workers/ingest-job';
import { heldLocks, ourLocks, watchOtherJobs } from './ingest-locks';
import { summaryNotices, type Notice } from './ingest-notices';
import { startSpare, takeSpare } from './spare-worker';
import { runWorkerJob, type RunningJob } from './jobs';
import { warnIfLarge, type StorageInfo } from './storage-quota';
import { rememberSampleFiles } from './sample-files';

export interface IngestJob {
  fileName: string;
  fileSize: number;
  startedAt: number;
  progress: IngestProgress | null;
  /** 'running'; 'cancelling' after Cancel; 'ask' when the analyst must choose to keep or discard. */
  phase: 'running' | 'cancelling' | 'ask';
  /** Set when the job was cancelled: the dataset holding what was read. */
  datasetId: number | null;
  pagesRead: number;
}

interface DatasetsState {
  datasets: Dataset[];
  storage: StorageInfo | null;
  refreshStorage(): Promise<void>;
  /** Ask the browser to keep this origin's data under storage pressure (asked once, on the first ingest). */
  requestPersistence(): Promise<void>;
  rename(id: number, name: string): Promise<void>;
  /** Put an access log's guessed-host pages on the base URL given; resolves to an error message or null. */
  rebaseLog(id: number, base: string): Promise<string | null>;
  selectedId: number | null;
  job: IngestJob | null;
  notices: Notice[];
  refresh(): Promise<void>;
  select(id: number | null): void;
  ingestFile(file: File): Promise<void>;
  /**
   * Read the files of one crawl (several WARC.gz, a folder, a WACZ) into ONE dataset.
   * `parquetColumns`: the columns a Parquet table of documents is read by, when the analyst chose them.
   */
  ingestFiles(
    files: File[],
    name?: string,
    opts?: { parquetColumns?: ChosenColumns; sample?: SampleRequest },
  ): Promise<void>;
  cancelJob(): void;
  resolveCancelled(keep: boolean): Promise<void>;
  remove(id: number): Promise<void>;
  dismiss(i: number): void;
}

/**
 * The embedded sample crawl's bytes, for the sidebar's "Open sample crawl" (ui/sample.ts makes them a
 * file): the chunk an idle ingest worker's warm-up reads too (workers/embedded-sample.ts).
 */
export function sampleCrawlBytes(): Promise<Uint8Array> {
  return embeddedSampleBytes();
}

/** The ingest job running in this tab (one at a time). */
let running: RunningJob<IngestResult> | null = null;
/** Datasets of this tab's reads already selected for the analyst when they appeared. */
const shownOnce = new Set<number>();
let datasetsWatch: { unsubscribe(): void } | null = null;
/** Datasets this tab deleted (their disappearance from the list is not news to this tab). */
const removedHere = new Set<number>();
/** The start-up removal of rows whose dataset is gone (once per tab; a failure leaves them for the next). */
let orphansRemoved: Promise<unknown> | null = null;

/** Every tab sees dataset changes live (another tab's ingest, rename, delete: db/queries.ts watchDatasets). */
function followDatasets(): void {
  if (datasetsWatch || typeof indexedDB === 'undefined') return;
  datasetsWatch = watchDatasets(
    db(),
    (datasets) => {
      let sel = useDatasets.getState().selectedId;
      // The dataset this tab's read has just created is shown at once (once: the analyst may look
      // elsewhere while it is read), its pages counted as they are stored.
      const mine = datasets.find(
        (d) => d.status === 'ingesting' && d.lock && ourLocks.has(d.lock) && !shownOnce.has(d.id!),
      );
      if (mine) {
        shownOnce.add(mine.id!);
        sel = mine.id!;
      }
      const st = useDatasets.getState();
      const gone = sel !== null && !datasets.some((d) => d.id === sel) && !removedHere.has(sel);
      const was = gone ? st.datasets.find((d) => d.id === sel) : undefined;
      useDatasets.setState({
        datasets,
        selectedId: sel !== null && datasets.some((d) => d.id === sel) ? sel : (datasets[0]?.id ?? null),
        // The dataset shown was deleted elsewhere (another tab): said, not a silent jump to another one.
        notices: was
          ? [
              ...st.notices.filter((n) => n.datasetId !== sel),
              {
                kind: 'info',
                text: `“${was.name}” was deleted in another tab${datasets.length > 0 ? `; showing “${datasets[0].name}” instead` : ''}.`,
              },
            ]
          : st.notices,
      });
    },
    () => {
      datasetsWatch = null;
    },
  );
}

/** The list with `row` in it (replacing the one of its id), newest first as listDatasets orders it. */
export function withRow(list: Dataset[], row: Dataset): Dataset[] {
  const next = list.filter((x) => x.id !== row.id);
  const at = next.findIndex((x) => x.created < row.created);
  next.splice(at < 0 ? next.length : at, 0, row);
  return next;
}

export const useDatasets = create<DatasetsState>((set, get) => ({
  datasets: [],
  storage: null,
  selectedId: null,
  job: null,
  notices: [],

  async refresh() {
    if (typeof indexedDB !== 'undefined') orphansRemoved ??= removeOrphans(db()).catch(() => 0);
    await orphansRemoved;
    await markInterrupted(db(), Date.now(), await heldLocks());
    followDatasets();
    watchOtherJobs(get().datasets);
    startSpare();
    const datasets = await listDatasets(db());
    const sel = get().selectedId;
    set({
      datasets,
      selectedId: sel !== null && datasets.some((d) => d.id === sel) ? sel : (datasets[0]?.id ?? null),
    });
    void get().refreshStorage();
  },

  async refreshStorage() {
    const st = typeof navigator !== 'undefined' ? navigator.storage : undefined;
    if (!st?.estimate) return;
    try {
      const [e, persisted] = await Promise.all([st.estimate(), st.persisted?.() ?? Promise.resolve(null)]);
      set({ storage: { usage: e.usage ?? 0, quota: e.quota ?? 0, persisted } });
    } catch {
      /* a browser that will not say: no storage line */
    }
  },

  async requestPersistence() {
    const st = typeof navigator !== 'undefined' ? navigator.storage : undefined;
    if (!st?.persist || (await st.persisted?.())) return;
    try {
      await st.persist();
    } catch {
      /* refused or unsupported: the storage line says "may be cleared" */
    }
    await get().refreshStorage();
  },

  async rename(id, name) {
    try {
      await renameDataset(db(), id, name);
    } catch (e) {
      set((s) => ({ notices: [...s.notices, { kind: 'error', text: (e as Error).message }] }));
    }
    await get().refresh();
  },

  async rebaseLog(id, base) {
    try {
      await rebaseLogPages(db(), id, base);
    } catch (e) {
      return (e as Error).message;
    }
    await get().refresh();
    return null;
  },

  select(id) {
    set({ selectedId: id });
  },

  ingestFile(file) {
    return get().ingestFiles([file]);
  },

  async ingestFiles(files, name, opts = {}) {
    if (files.length === 0) return;
    const file = files[0];
    const label = files.length === 1 ? file.name : `${file.name} and ${files.length - 1} more`;
    const size = files.reduce((a, f) => a + f.size, 0);
    if (get().job) {
      set((s) => ({
        notices: [
          ...s.notices,
          { kind: 'info', text: `Busy with ${s.job!.fileName}: drop ${label} again when it is done.` },
        ],
      }));
      return;
    }
    set({
      job: {
        fileName: name ?? label,
        fileSize: size,
        startedAt: Date.now(),
        progress: null,
        phase: 'running',
        datasetId: null,
        pagesRead: 0,
      },
    });
    void get().requestPersistence();
    void warnIfLarge(files, label, size, (n) => set((s) => ({ notices: [...s.notices, n] })));
    // The job holds this lock while it runs: a reload frees it, and the next load sees that at once.
    const lock = `dw-ingest-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
    ourLocks.add(lock);
    running = runWorkerJob(
      takeSpare,
      { files, name, lock, parquetColumns: opts.parquetColumns, sample: opts.sample },
      {
        onProgress: (p: IngestProgress) => {
          const job = get().job;
          if (job) set({ job: { ...job, progress: p } });
        },
      },
    );
    try {
      const r = await running.result;
      if (r.kind === 'busy') throw new Error('its lock is held');
      if (r.kind === 'cancelled') {
        const job = get().job!;
        if (r.datasetId === null || r.pages === 0) {
          if (r.datasetId !== null) {
            removedHere.add(r.datasetId);
            await deleteDataset(db(), r.datasetId);
          }
          set({ job: null });
        } else set({ job: { ...job, phase: 'ask', datasetId: r.datasetId, pagesRead: r.pages } });
      } else if (r.kind === 'rejected') {
        set((s) => ({
          job: null,
          notices: [
            ...s.notices,
            {
              kind: 'error',
              // A fault before the first page: what it says was read held no whole page.
              text: `No dataset created${r.noPage ? ': no page was read whole before this fault' : ''}. ${r.error.message}`,
              ...(r.error.columns ? { chooseColumns: { files, columns: r.error.columns } } : {}),
            },
          ],
        }));
      } else if (r.kind === 'stopped') {
        set((st) => ({
          job: null,
          selectedId: r.datasetId,
          notices: [
            ...st.notices,
            {
              kind: 'error',
              text: `Partial: ${r.pages.toLocaleString('en-US')} pages kept. ${r.error.message}`,
              datasetId: r.datasetId,
            },
          ],
        }));
      } else {
        // A sample's files stay at hand for DUST's partner read (state/sample-files.ts).
        if (opts.sample) rememberSampleFiles(r.datasetId, files);
        const extra = summaryNotices(r.summary).map((n) => ({ ...n, datasetId: r.datasetId }));
        set((st) => ({
          job: null,
          selectedId: r.datasetId,
          notices: [...st.notices, ...extra],
          // The row as the job left it, shown with the job's end: reading the list again (refresh, below)
          // took ~30 ms more before the dataset showed as ready.
          ...(r.row ? { datasets: withRow(st.datasets, r.row) } : {}),
        }));
      }
    } catch (e) {
      set((s) => ({
        job: null,
        notices: [
          ...s.notices,
          { kind: 'error', text: `${label}: the ingest worker failed: ${(e as Error).message}` },
        ],
      }));
    } finally {
      running = null;
      ourLocks.delete(lock);
      await get().refresh();
      startSpare();
    }
  },

  cancelJob() {
    const job = get().job;
    if (!job || !running) return;
    set({ job: { ...job, phase: 'cancelling' } });
    running.cancel();
  },

  async resolveCancelled(keep) {
    const job = get().job;
    if (!job || job.datasetId === null) return;
    if (!keep) {
      removedHere.add(job.datasetId);
      await deleteDataset(db(), job.datasetId);
    }
    set({ job: null, selectedId: keep ? job.datasetId : get().selectedId });
    await get().refresh();
  },

  async remove(id) {
    removedHere.add(id);
    await deleteDataset(db(), id);
    set((s) => ({
      selectedId: s.selectedId === id ? null : s.selectedId,
      notices: s.notices.filter((n) => n.datasetId !== id),
    }));
    await get().refresh();
  },

  dismiss(i) {
    set((s) => ({ notices: s.notices.filter((_, k) => k !== i) }));
  },
}));

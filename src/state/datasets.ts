import type { SampleRequest } from '../workers/sample-read';
import { liveQuery } from 'dexie';
import { create } from 'zustand';
import { emptyReason } from '../core/ingest/outcome';
import type { ChosenColumns, IngestProgress } from '../core/types';
import { deleteDataset, listDatasets, markInterrupted, rebaseLogPages, renameDataset } from '../db/queries';
import { removeOrphans } from '../db/orphans';
import { db, type Dataset } from '../db/schema';
import { Comlink, startIngestWorker, type WorkerHandle } from '../workers/client';
import type { IngestWorkerApi } from '../workers/ingest.worker';

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

export interface Notice {
  kind: 'error' | 'info' | 'warning';
  text: string;
  /** A Parquet table whose documents' columns were not found: its files and columns, to choose them. */
  chooseColumns?: { files: File[]; columns: string[] };
}

/** The origin's storage as the browser reports it (navigator.storage), null where it cannot say. */
export interface StorageInfo {
  usage: number;
  quota: number;
  /** True once the browser granted persistence (not evicted under storage pressure). */
  persisted: boolean | null;
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
  /** Read the files of one crawl (several WARC.gz, a folder, a WACZ) into ONE dataset. */
  /** `parquetColumns`: the columns a Parquet table of documents is read by, when the analyst chose them. */
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

let handle: WorkerHandle<IngestWorkerApi> | null = null;
/**
 * An ingest worker started ahead of the next drop (its module fetched, compiled and run while the
 * analyst picks a file), taken by the next job; a new one is started once that job has ended.
 */
let spare: WorkerHandle<IngestWorkerApi> | null = null;
function startSpare(): void {
  if (spare === null && typeof Worker !== 'undefined') spare = startIngestWorker();
}
/** Locks of the jobs this tab runs; locks of other tabs' jobs being watched. */
const ourLocks = new Set<string>();
const watchedLocks = new Set<string>();
/** Datasets of this tab's reads already selected for the analyst when they appeared. */
const shownOnce = new Set<number>();
let datasetsWatch: { unsubscribe(): void } | null = null;
/** The start-up removal of rows whose dataset is gone (once per tab; a failure leaves them for the next). */
let orphansRemoved: Promise<unknown> | null = null;

/** Names of the Web Locks held in this origin now (all tabs), or null without Web Locks. */
async function heldLocks(): Promise<Set<string> | null> {
  if (typeof navigator === 'undefined' || !navigator.locks?.query) return null;
  const q = await navigator.locks.query();
  return new Set([...(q.held ?? []), ...(q.pending ?? [])].map((l) => l.name ?? ''));
}

/**
 * Every tab sees dataset changes live (another tab's ingest, rename, delete): Dexie's liveQuery is told of
 * writes from other tabs and workers of this origin.
 */
function watchDatasets(): void {
  if (datasetsWatch || typeof indexedDB === 'undefined') return;
  datasetsWatch = liveQuery(() => listDatasets(db())).subscribe({
    next: (datasets) => {
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
      useDatasets.setState({
        datasets,
        selectedId: sel !== null && datasets.some((d) => d.id === sel) ? sel : (datasets[0]?.id ?? null),
      });
    },
    error: () => {
      datasetsWatch = null;
    },
  });
}

/**
 * A dataset another tab is reading stays 'ingesting' while that tab holds its lock. Wait for the lock:
 * when it is granted, that tab is gone (or finished); if the row is still 'ingesting', it was interrupted.
 */
function watchOtherJobs(): void {
  if (typeof navigator === 'undefined' || !navigator.locks) return;
  for (const d of useDatasets.getState().datasets) {
    const lock = d.lock;
    if (d.status !== 'ingesting' || !lock || ourLocks.has(lock) || watchedLocks.has(lock)) continue;
    watchedLocks.add(lock);
    void navigator.locks.request(lock, async () => {
      watchedLocks.delete(lock);
      const held = (await heldLocks()) ?? new Set<string>();
      held.delete(lock);
      await markInterrupted(db(), Date.now(), held);
    });
  }
}

/** Warn before a read that will likely not fit in what the browser lets this site store. */
async function warnIfLarge(files: File[], label: string, size: number): Promise<void> {
  const st = typeof navigator !== 'undefined' ? navigator.storage : undefined;
  if (!st?.estimate) return;
  const e = await st.estimate().catch(() => null);
  if (!e?.quota) return;
  const free = e.quota - (e.usage ?? 0);
  // Stored pages take about what the file inflates to: ~4× a .gz, ~1× a plain file (measured on docsite).
  const need = size * (files.some((f) => /\.(gz|wacz|zip)$/i.test(f.name)) ? 4 : 1);
  if (need > free)
    useDatasets.setState((s) => ({
      notices: [
        ...s.notices,
        {
          kind: 'warning',
          text:
            `${label} may need about ${fmtMB(need)} of storage, and this site has ${fmtMB(free)} left: ` +
            'the read will stop when the storage is full and keep the pages read by then.',
        },
      ],
    }));
}

const fmtMB = (n: number) => `${Math.round(n / 2 ** 20).toLocaleString('en-US')} MB`;

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
    watchDatasets();
    watchOtherJobs();
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
    void warnIfLarge(files, label, size);
    // The tab holds this lock while the job runs: a reload frees it, and the next load sees that at once.
    const lock = `dw-ingest-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`;
    ourLocks.add(lock);
    let release: () => void = () => {};
    const held = new Promise<void>((ok) => (release = ok));
    if (typeof navigator !== 'undefined' && navigator.locks)
      await new Promise<void>((granted) => {
        void navigator.locks.request(lock, () => {
          granted();
          return held;
        });
      });
    handle = spare ?? startIngestWorker();
    spare = null;
    const onProgress = Comlink.proxy((p: IngestProgress) => {
      const job = get().job;
      if (job) set({ job: { ...job, progress: p } });
    });
    try {
      const r = await handle.api.run(
        { files, name, lock, parquetColumns: opts.parquetColumns, sample: opts.sample },
        onProgress,
      );
      if (r.kind === 'cancelled') {
        const job = get().job!;
        if (r.datasetId === null || r.pages === 0) {
          if (r.datasetId !== null) await deleteDataset(db(), r.datasetId);
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
            },
          ],
        }));
      } else {
        const s = r.summary;
        const extra: Notice[] = [];
        if (s.error)
          extra.push({
            kind: 'error',
            text: `Partial: ${s.pages.toLocaleString('en-US')} pages kept. ${s.error.message}`,
          });
        const empty = emptyReason(s);
        if (empty) extra.push({ kind: 'warning', text: empty });
        const notCrawls = (s.sources ?? []).filter((x) => x.format === null);
        if (notCrawls.length > 0)
          extra.push({
            kind: 'warning',
            // Not only files of another kind: a damaged gzip is skipped too, so no "not a crawl".
            text: `Skipped ${notCrawls.length} file${notCrawls.length > 1 ? 's' : ''} that could not be read as a crawl: ${notCrawls
              .slice(0, 5)
              .map((x) => x.error?.message ?? x.name)
              .join('; ')}${notCrawls.length > 5 ? '; …' : ''}`,
          });
        const kinds = [...new Set((s.sources ?? []).flatMap((x) => (x.format ? [x.format] : [])))];
        if (kinds.length > 1)
          extra.push({
            kind: 'warning',
            text: `The files dropped together are of ${kinds.length} kinds (${kinds.join(', ')}): they were read as one crawl, one dataset. Drop them one at a time to keep them apart.`,
          });
        if (s.warningCount > 0)
          extra.push({
            kind: 'warning',
            // Each problem's message names its file (and where): no second file name before it.
            text: `${s.warningCount} problem${s.warningCount > 1 ? 's' : ''} read past${s.warningCount > 1 ? '; the first' : ''}: ${s.warnings[0].message}`,
          });
        set((st) => ({ job: null, selectedId: r.datasetId, notices: [...st.notices, ...extra] }));
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
      handle?.terminate();
      handle = null;
      release();
      ourLocks.delete(lock);
      await get().refresh();
      startSpare();
    }
  },

  cancelJob() {
    const job = get().job;
    if (!job || !handle) return;
    set({ job: { ...job, phase: 'cancelling' } });
    void handle.api.cancel();
  },

  async resolveCancelled(keep) {
    const job = get().job;
    if (!job || job.datasetId === null) return;
    if (!keep) await deleteDataset(db(), job.datasetId);
    set({ job: null, selectedId: keep ? job.datasetId : get().selectedId });
    await get().refresh();
  },

  async remove(id) {
    await deleteDataset(db(), id);
    if (get().selectedId === id) set({ selectedId: null });
    await get().refresh();
  },

  dismiss(i) {
    set((s) => ({ notices: s.notices.filter((_, k) => k !== i) }));
  },
}));

import { create } from 'zustand';
import { emptyReason } from '../core/ingest/outcome';
import type { IngestProgress } from '../core/types';
import { deleteDataset, listDatasets, markInterrupted, renameDataset } from '../db/queries';
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
  /** A rejected file the analyst may retry with a looser option. */
  retry?: { file: File; wholeFileGzip: boolean };
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
  selectedId: number | null;
  job: IngestJob | null;
  notices: Notice[];
  refresh(): Promise<void>;
  select(id: number | null): void;
  ingestFile(file: File, opts?: { wholeFileGzip?: boolean }): Promise<void>;
  cancelJob(): void;
  resolveCancelled(keep: boolean): Promise<void>;
  remove(id: number): Promise<void>;
  dismiss(i: number): void;
}

let handle: WorkerHandle<IngestWorkerApi> | null = null;

export const useDatasets = create<DatasetsState>((set, get) => ({
  datasets: [],
  storage: null,
  selectedId: null,
  job: null,
  notices: [],

  async refresh() {
    await markInterrupted(db());
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

  select(id) {
    set({ selectedId: id });
  },

  async ingestFile(file, opts = {}) {
    if (get().job) {
      set((s) => ({
        notices: [
          ...s.notices,
          { kind: 'info', text: `Busy with ${s.job!.fileName}: drop ${file.name} again when it is done.` },
        ],
      }));
      return;
    }
    set({
      job: {
        fileName: file.name,
        fileSize: file.size,
        startedAt: Date.now(),
        progress: null,
        phase: 'running',
        datasetId: null,
        pagesRead: 0,
      },
    });
    void get().requestPersistence();
    handle = startIngestWorker();
    const onProgress = Comlink.proxy((p: IngestProgress) => {
      const job = get().job;
      if (job) set({ job: { ...job, progress: p } });
    });
    try {
      const r = await handle.api.run({ file, wholeFileGzip: opts.wholeFileGzip }, onProgress);
      if (r.kind === 'cancelled') {
        const job = get().job!;
        if (r.datasetId === null || r.pages === 0) {
          if (r.datasetId !== null) await deleteDataset(db(), r.datasetId);
          set({ job: null });
        } else set({ job: { ...job, phase: 'ask', datasetId: r.datasetId, pagesRead: r.pages } });
      } else if (r.kind === 'rejected') {
        const gz = r.error.reason.includes('gzipped as a whole');
        set((s) => ({
          job: null,
          notices: [
            ...s.notices,
            {
              kind: 'error',
              text: `No dataset created. ${r.error.message}`,
              retry: gz ? { file, wholeFileGzip: true } : undefined,
            },
          ],
        }));
      } else if (r.kind === 'stopped') {
        set((st) => ({
          job: null,
          selectedId: r.datasetId,
          notices: [
            ...st.notices,
            { kind: 'error', text: `Partial: ${r.pages} pages kept. ${r.error.message}` },
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
        if (s.warningCount > 0)
          extra.push({
            kind: 'warning',
            text: `${s.warningCount} problem${s.warningCount > 1 ? 's' : ''} read past in ${s.fileName}: ${s.warnings[0].message}`,
          });
        set((st) => ({ job: null, selectedId: r.datasetId, notices: [...st.notices, ...extra] }));
      }
    } catch (e) {
      set((s) => ({
        job: null,
        notices: [
          ...s.notices,
          { kind: 'error', text: `${file.name}: the ingest worker failed: ${(e as Error).message}` },
        ],
      }));
    } finally {
      handle?.terminate();
      handle = null;
      await get().refresh();
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

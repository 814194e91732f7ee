import { create } from 'zustand';
import type { LabelValue } from '../core/eval/estimators';
import { buildQueue, type QueueItem, type Strategy } from '../core/eval/sampling';
import { db, type StoredAnalysis, type StoredLabel } from '../db/schema';

interface LabelsState {
  datasetId: number | null;
  labels: Map<string, StoredLabel>;
  queue: QueueItem[];
  position: number;
  strategy: Strategy;
  /** Undo stack: keys of labels set in this session, last first. */
  history: string[];
  /** Reference pages (seqs) of the dataset: known to have a replica. */
  references: Set<number>;
  toggleReference(seq: number): Promise<void>;
  load(datasetId: number | null): Promise<void>;
  start(a: StoredAnalysis, strategy: Strategy, threshold: number): void;
  /** A queue of given pairs (a cluster's), not a probability sample: π unknown. */
  startWith(pairs: number[]): void;
  label(a: StoredAnalysis, value: LabelValue): Promise<void>;
  undo(): Promise<void>;
  move(delta: number): void;
  importLabels(rows: StoredLabel[]): Promise<number>;
}

export const labelKey = (a: number, b: number) => `${Math.min(a, b)}:${Math.max(a, b)}`;

export const useLabels = create<LabelsState>((set, get) => ({
  datasetId: null,
  labels: new Map(),
  queue: [],
  position: 0,
  strategy: 'stratified',
  history: [],
  references: new Set(),

  async toggleReference(seq) {
    const id = get().datasetId;
    if (id === null) return;
    // State first (the checkbox is controlled by it), then the database.
    const refs = new Set(get().references);
    const on = !refs.has(seq);
    if (on) refs.add(seq);
    else refs.delete(seq);
    set({ references: refs });
    if (on) await db().references.put({ datasetId: id, seq });
    else await db().references.delete([id, seq]);
  },

  async load(datasetId) {
    set({ datasetId, labels: new Map(), queue: [], position: 0, history: [], references: new Set() });
    if (datasetId === null) return;
    const rows = await db().labels.where('datasetId').equals(datasetId).toArray();
    const refs = await db().references.where('datasetId').equals(datasetId).toArray();
    if (get().datasetId === datasetId) {
      set({
        labels: new Map(rows.map((r) => [labelKey(r.a, r.b), r])),
        references: new Set(refs.map((r) => r.seq)),
      });
    }
  },

  /** A queue of 200 pairs by the strategy, scored by exact Jaccard (stratified, near-threshold at `threshold`). */
  start(a, strategy, threshold) {
    const queue = buildQueue(a.pairs.jaccard, strategy, 200, { seed: Date.now() % 100000, threshold });
    set({ queue, position: 0, strategy });
  },

  startWith(pairs) {
    set({
      queue: pairs.map((pair) => ({ pair, strategy: 'near-threshold' as const, pi: NaN })),
      position: 0,
    });
  },

  async label(a, value) {
    const { queue, position, datasetId } = get();
    const item = queue[position];
    if (!item || datasetId === null) return;
    const sa = a.seqs[a.pairs.a[item.pair]];
    const sb = a.seqs[a.pairs.b[item.pair]];
    const row: StoredLabel = {
      datasetId,
      a: Math.min(sa, sb),
      b: Math.max(sa, sb),
      label: value,
      strategy: item.strategy,
      pi: item.pi,
      at: new Date().toISOString(),
    };
    await db().labels.put(row);
    const labels = new Map(get().labels);
    const key = labelKey(row.a, row.b);
    labels.set(key, row);
    set({ labels, position: Math.min(queue.length, position + 1), history: [key, ...get().history] });
  },

  async undo() {
    const [key, ...rest] = get().history;
    if (!key) return;
    const row = get().labels.get(key);
    if (row) await db().labels.delete([row.datasetId, row.a, row.b]);
    const labels = new Map(get().labels);
    labels.delete(key);
    set({ labels, history: rest, position: Math.max(0, get().position - 1) });
  },

  move(delta) {
    set({ position: Math.max(0, Math.min(get().queue.length - 1, get().position + delta)) });
  },

  async importLabels(rows) {
    const id = get().datasetId;
    if (id === null) return 0;
    const clean = rows
      .filter(
        (r) =>
          (r.label === 'dup' || r.label === 'not' || r.label === 'unsure') &&
          Number.isFinite(r.a) &&
          Number.isFinite(r.b),
      )
      .map((r) => ({
        ...r,
        datasetId: id,
        a: Math.min(r.a, r.b),
        b: Math.max(r.a, r.b),
        pi: Number(r.pi),
        strategy: r.strategy ?? 'random',
      }));
    await db().labels.bulkPut(clean);
    await get().load(id);
    return clean.length;
  },
}));

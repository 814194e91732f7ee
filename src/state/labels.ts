import { create } from 'zustand';
import type { LabelValue } from '../core/eval/estimators';
import { pairKey } from '../core/eval/pair-key';
import { buildQueue, type QueueItem, type Strategy } from '../core/eval/sampling';
import type { StoredAnalysis, StoredLabel } from '../db/schema';
import { deleteLabel, loadLabels, putLabels, setReference } from '../db/labels';

/**
 * One step of the undo stack: the labels' keys, what each was before (null: none), and whether the
 * queue moved on (one key for a label given; an import's keys together).
 */
interface Change {
  keys: string[];
  before: (StoredLabel | null)[];
  queue: boolean;
}

interface LabelsState {
  datasetId: number | null;
  labels: Map<string, StoredLabel>;
  queue: QueueItem[];
  position: number;
  strategy: Strategy;
  /** Undo stack of this session, last first. */
  history: Change[];
  /** Reference pages (seqs) of the dataset: known to have a replica. */
  references: Set<number>;
  /** Blind labelling: the pair's similarity scores stay hidden until it has a label (remembered). */
  blind: boolean;
  setBlind(on: boolean): void;
  toggleReference(seq: number): Promise<void>;
  load(datasetId: number | null): Promise<void>;
  start(a: StoredAnalysis, strategy: Strategy, threshold: number): void;
  /** A queue of given pairs (a cluster's), not a probability sample: π unknown. */
  startWith(pairs: number[]): void;
  /** Labels the queue's current pair and moves on. */
  label(a: StoredAnalysis, value: LabelValue): Promise<void>;
  /** Changes the label of an already labelled pair (seqs); its sampling design (strategy, π) stays. */
  relabel(seqA: number, seqB: number, value: LabelValue): Promise<void>;
  /** Deletes the label of a pair (seqs). */
  remove(seqA: number, seqB: number): Promise<void>;
  undo(): Promise<void>;
  move(delta: number): void;
  /**
   * Adds labels read from a file: a pair not labelled yet is added, one labelled otherwise takes the
   * file's label, one labelled the same is left as it is (with its sampling design). The queue and
   * the undo stack stay; the import is one undoable step.
   */
  importLabels(rows: StoredLabel[]): Promise<{ added: number; changed: number; unchanged: number }>;
}

const BLIND_KEY = 'dedup-workbench.blind-labelling';

function readBlind(): boolean {
  try {
    return globalThis.localStorage?.getItem(BLIND_KEY) === '1';
  } catch {
    return false; // storage refused (privacy mode): not remembered, still works
  }
}

export const useLabels = create<LabelsState>((set, get) => {
  /** Writes one label change (row, or deletion of `key`) to state and database, undoable. */
  const apply = async (key: string, row: StoredLabel | null, position?: number) => {
    const before = get().labels.get(key) ?? null;
    const labels = new Map(get().labels);
    if (row) labels.set(key, row);
    else labels.delete(key);
    const queue = position !== undefined;
    // State first (lists and estimates follow at once), then the database.
    set({
      labels,
      history: [{ keys: [key], before: [before], queue }, ...get().history],
      ...(queue ? { position } : {}),
    });
    if (row) await putLabels([row]);
    else if (before) await deleteLabel(before);
  };

  return {
    datasetId: null,
    labels: new Map(),
    queue: [],
    position: 0,
    strategy: 'stratified',
    history: [],
    references: new Set(),
    blind: readBlind(),

    setBlind(on) {
      set({ blind: on });
      try {
        globalThis.localStorage?.setItem(BLIND_KEY, on ? '1' : '0');
      } catch {
        // not remembered; the setting still holds for this session
      }
    },

    async toggleReference(seq) {
      const id = get().datasetId;
      if (id === null) return;
      // State first (the checkbox is controlled by it), then the database.
      const refs = new Set(get().references);
      const on = !refs.has(seq);
      if (on) refs.add(seq);
      else refs.delete(seq);
      set({ references: refs });
      await setReference(id, seq, on);
    },

    async load(datasetId) {
      set({ datasetId, labels: new Map(), queue: [], position: 0, history: [], references: new Set() });
      if (datasetId === null) return;
      const { labels: rows, references: refs } = await loadLabels(datasetId);
      if (get().datasetId === datasetId) {
        set({
          labels: new Map(rows.map((r) => [pairKey(r.a, r.b), r])),
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
      await apply(pairKey(row.a, row.b), row, Math.min(queue.length, position + 1));
    },

    async relabel(seqA, seqB, value) {
      const key = pairKey(seqA, seqB);
      const old = get().labels.get(key);
      if (!old || old.label === value) return;
      await apply(key, { ...old, label: value, at: new Date().toISOString() });
    },

    async remove(seqA, seqB) {
      const key = pairKey(seqA, seqB);
      if (get().labels.has(key)) await apply(key, null);
    },

    async undo() {
      const [last, ...rest] = get().history;
      if (!last) return;
      const labels = new Map(get().labels);
      const restore: StoredLabel[] = [];
      const drop: StoredLabel[] = [];
      last.keys.forEach((key, i) => {
        const before = last.before[i];
        const now = labels.get(key);
        if (before) {
          labels.set(key, before);
          restore.push(before);
        } else if (now) {
          labels.delete(key);
          drop.push(now);
        }
      });
      // Undoing a label given in the queue steps back to its pair; a change in the list leaves the queue.
      set({
        labels,
        history: rest,
        position: last.queue ? Math.max(0, get().position - 1) : get().position,
      });
      if (restore.length > 0) await putLabels(restore);
      for (const r of drop) await deleteLabel(r);
    },

    move(delta) {
      set({ position: Math.max(0, Math.min(get().queue.length - 1, get().position + delta)) });
    },

    async importLabels(rows) {
      const id = get().datasetId;
      if (id === null) return { added: 0, changed: 0, unchanged: 0 };
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
      const labels = new Map(get().labels);
      const keys: string[] = [];
      const seen = new Set<string>();
      const before: (StoredLabel | null)[] = [];
      const write: StoredLabel[] = [];
      let added = 0;
      let changed = 0;
      let unchanged = 0;
      for (const r of clean) {
        const key = pairKey(r.a, r.b);
        const had = labels.get(key) ?? null;
        if (had?.label === r.label) {
          unchanged++;
          continue;
        }
        if (had) changed++;
        else added++;
        if (!seen.has(key)) {
          seen.add(key);
          keys.push(key);
          before.push(had);
        }
        labels.set(key, r);
        write.push(r);
      }
      if (write.length > 0) {
        set({ labels, history: [{ keys, before, queue: false }, ...get().history] });
        await putLabels(write);
      }
      return { added, changed, unchanged };
    },
  };
});

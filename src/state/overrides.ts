import { create } from 'zustand';
import { pairKey } from '../core/eval/pair-key';
import type { Links } from '../core/clusters/overrides';
import { db, type StoredAnalysis, type StoredOverride } from '../db/schema';

/** One undo step: the pairs' keys and what each was before (null: no decision). */
interface Step {
  keys: string[];
  before: (StoredOverride | null)[];
}

interface OverridesState {
  datasetId: number | null;
  /** The dataset's decisions by pair key (pairKey of the seqs). */
  rows: Map<string, StoredOverride>;
  history: Step[];
  load(datasetId: number | null): Promise<void>;
  /** The reviewer's name recorded with each decision ('' for none); kept in this browser. */
  reviewer: string;
  setReviewer(name: string): void;
  /** Decides pairs (several at once for a split or a merge): one undoable step. */
  decide(rows: Omit<StoredOverride, 'datasetId' | 'at'>[]): Promise<void>;
  /** Takes back the decisions on these pairs (seqs): one undoable step. */
  remove(pairs: [number, number][]): Promise<void>;
  undo(): Promise<void>;
}

/**
 * The analyst's decisions over the clusters of the shown dataset (core/clusters/overrides.ts), stored
 * per dataset (db table `overrides`), undoable; the clusters follow them at once (linksOf below).
 */
export const useOverrides = create<OverridesState>((set, get) => {
  const write = async (keys: string[], next: (StoredOverride | null)[]) => {
    const id = get().datasetId;
    if (id === null) return;
    const rows = new Map(get().rows);
    const before = keys.map((k) => rows.get(k) ?? null);
    keys.forEach((k, i) => {
      const r = next[i];
      if (r) rows.set(k, r);
      else rows.delete(k);
    });
    set({ rows, history: [{ keys, before }, ...get().history] });
    await store(id, keys, next, before);
  };
  return {
    datasetId: null,
    rows: new Map(),
    history: [],
    reviewer: savedReviewer(),

    setReviewer(name) {
      const reviewer = name.slice(0, REVIEWER_MAX);
      set({ reviewer });
      try {
        globalThis.localStorage?.setItem(REVIEWER_KEY, reviewer);
      } catch {
        // Storage refused (private mode, quota): the name holds for this session.
      }
    },

    async load(datasetId) {
      set({ datasetId, rows: new Map(), history: [] });
      if (datasetId === null) return;
      const rows = await db().overrides.where('datasetId').equals(datasetId).toArray();
      if (get().datasetId === datasetId) set({ rows: new Map(rows.map((r) => [pairKey(r.a, r.b), r])) });
    },

    async decide(list) {
      const id = get().datasetId;
      if (id === null || list.length === 0) return;
      const at = new Date().toISOString();
      const reviewer = get().reviewer.trim();
      const rows = list.map((r) => {
        const [a, b, urlA, urlB] = r.a < r.b ? [r.a, r.b, r.urlA, r.urlB] : [r.b, r.a, r.urlB, r.urlA];
        const by = r.by ?? (reviewer || undefined);
        return { ...r, a, b, urlA, urlB, datasetId: id, at, ...(by ? { by } : {}) };
      });
      await write(
        rows.map((r) => pairKey(r.a, r.b)),
        rows,
      );
    },

    async remove(pairs) {
      const keys = pairs.map(([a, b]) => pairKey(a, b)).filter((k) => get().rows.has(k));
      if (keys.length > 0)
        await write(
          keys,
          keys.map(() => null),
        );
    },

    async undo() {
      const [last, ...rest] = get().history;
      const id = get().datasetId;
      if (!last || id === null) return;
      const rows = new Map(get().rows);
      const now = last.keys.map((k) => rows.get(k) ?? null);
      last.keys.forEach((k, i) => {
        const b = last.before[i];
        if (b) rows.set(k, b);
        else rows.delete(k);
      });
      set({ rows, history: rest });
      await store(id, last.keys, last.before, now);
    },
  };
});

const REVIEWER_KEY = 'dedup-workbench.reviewer';
/** A reviewer's name is a label, not a document. */
export const REVIEWER_MAX = 80;

function savedReviewer(): string {
  try {
    return (globalThis.localStorage?.getItem(REVIEWER_KEY) ?? '').slice(0, REVIEWER_MAX);
  } catch {
    return '';
  }
}

/** Writes the rows given (a null deletes the pair's row, known from `was`). */
async function store(
  datasetId: number,
  keys: string[],
  next: (StoredOverride | null)[],
  was: (StoredOverride | null)[],
): Promise<void> {
  const put = next.filter((r): r is StoredOverride => r !== null);
  const gone = keys
    .map((_, i) => (next[i] === null ? was[i] : null))
    .filter((r): r is StoredOverride => r !== null)
    .map((r) => [datasetId, r.a, r.b] as [number, number, number]);
  await db().transaction('rw', db().overrides, async () => {
    if (put.length) await db().overrides.bulkPut(put);
    if (gone.length) await db().overrides.bulkDelete(gone);
  });
}

let lastLinks: { analysis: StoredAnalysis; rows: Map<string, StoredOverride>; links: Links } | null = null;

/**
 * The decisions as the engine takes them: page indexes of the analysis (a page the analysis does not
 * hold is left out). One object per analysis and decision set, so memoised views keep their identity.
 */
export function linksOf(analysis: StoredAnalysis, rows: Map<string, StoredOverride>): Links {
  if (lastLinks && lastLinks.analysis === analysis && lastLinks.rows === rows) return lastLinks.links;
  const index = new Map<number, number>();
  analysis.seqs.forEach((s, i) => index.set(s, i));
  const must: [number, number][] = [];
  const cannot: [number, number][] = [];
  for (const r of rows.values()) {
    const x = index.get(r.a);
    const y = index.get(r.b);
    if (x === undefined || y === undefined) continue;
    (r.kind === 'must' ? must : cannot).push([x, y]);
  }
  const links = { must, cannot };
  lastLinks = { analysis, rows, links };
  return links;
}

/** The shown dataset's decisions for this analysis (undefined without any): for shownClusters. */
export function useLinks(analysis: StoredAnalysis | null): Links | undefined {
  const rows = useOverrides((s) => s.rows);
  return analysis && rows.size > 0 ? linksOf(analysis, rows) : undefined;
}

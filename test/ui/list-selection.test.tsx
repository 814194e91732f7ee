// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_THRESHOLDS, type MethodId, type Thresholds } from '../../src/core/candidates/methods';
import { likelySubstringRule, type Rule } from '../../src/core/dust';
import { clusterView, type ClusterMode } from '../../src/core/clusters/view';
import { pairKey } from '../../src/core/eval/pair-key';
import { seededRandom, type Rng } from '../../src/core/random';
import type { StoredAnalysis, StoredLabel, StoredPage } from '../../src/db/schema';
import { pairTable } from '../core/clusters/pair-table';

// jsdom has no Worker: the one module that starts workers is replaced (as in clusters-pane.test.tsx).
vi.mock('../../src/workers/client', () => ({ Comlink: { proxy: <T,>(f: T) => f } }));
const { useAnalysis } = await import('../../src/state/analysis');
const { useDust } = await import('../../src/state/dust');
const { useLabels } = await import('../../src/state/labels');
const { usePages, visiblePages } = await import('../../src/state/pages');
const { ClustersPane } = await import('../../src/ui/clusters/ClustersPane');
const { RuleTable } = await import('../../src/ui/dust/RuleTable');
const { visibleRules } = await import('../../src/ui/dust/RulesPane');
const { LabelsList } = await import('../../src/ui/labels/LabelsList');
const { PagesTable } = await import('../../src/ui/PagesTable');

/**
 * Issue #24, item 1: a selection is an item, never a row. Seeded random sequences of keys and clicks
 * over lists that re-sort under them (labels newest first, clusters by size after a slider move, rules
 * and pages by a header click) check that every key acts on the item selected when it was pressed, that
 * the selection stays on that item, and that an item leaving the list passes the selection to the first
 * item after it in the list as it was that is still listed, or to none. SEED=n runs other sequences.
 */
const BASE = Number(process.env.SEED ?? 24);
const RUNS = 8;
const STEPS = 50;

/** The oracle of where a selection goes, written apart from src/state/selection.ts. */
function expected<K>(before: readonly K[], listed: (k: K) => boolean, sel: K | null): K | null {
  if (sel === null || listed(sel)) return sel;
  const at = before.indexOf(sel);
  if (at < 0) return sel;
  return before.slice(at + 1).find(listed) ?? null;
}

/** Runs `run` for RUNS seeds; a failure names its seed and step, so it can be replayed with SEED. */
async function seeded(run: (rng: Rng, log: string[]) => Promise<void> | void): Promise<void> {
  for (let seed = BASE; seed < BASE + RUNS; seed++) {
    const log: string[] = [];
    try {
      await run(seededRandom(seed), log);
    } catch (e) {
      throw new Error(`seed ${seed} (SEED=${seed} replays it), after ${log.join(', ')}: ${String(e)}`, {
        cause: e,
      });
    } finally {
      cleanup();
    }
  }
}

const pick = <T,>(rng: Rng, xs: readonly T[]): T => xs[Math.floor(rng() * xs.length)];
// Plain selectors inside the loops: role queries cost milliseconds each in jsdom, thousands of times.
const $ = (selector: string) => document.querySelector<HTMLElement>(selector);
const $$ = (selector: string) => [...document.querySelectorAll<HTMLElement>(selector)];
const moved = (key: string, at: number, n: number, page: number): number =>
  key === 'ArrowUp'
    ? Math.max(0, at - 1)
    : key === 'ArrowDown'
      ? Math.min(n - 1, at + 1)
      : key === 'Home'
        ? 0
        : key === 'End'
          ? n - 1
          : key === 'PageUp'
            ? Math.max(0, at - page)
            : Math.min(n - 1, at + page);

afterEach(cleanup);

describe('labels list: labels land on the pair selected when the key was pressed', () => {
  const PAGES = 12;
  const url = (seq: number) => `http://l.test/p${seq}`;
  const values = { d: 'duplicate', n: 'not', u: 'unsure' } as Record<string, string>;

  /** The list as shown: each row's pair (its two URLs), label, and whether it is the active row. */
  const shown = () =>
    [...document.querySelectorAll('[role="listbox"][aria-label="Labels"] [role="option"]')].map((li) => ({
      pair: [...li.querySelectorAll('.url')].map((u) => u.getAttribute('title')).join(' '),
      label: li.querySelector('.label-value')!.textContent!,
      active: li.getAttribute('aria-selected') === 'true',
    }));

  it('over random keys, relabels, deletions and filter changes', async () => {
    await seeded(async (rng, log) => {
      const labels: StoredLabel[] = [];
      const seen = new Set<string>();
      while (labels.length < 16) {
        const a = 100 + Math.floor(rng() * PAGES);
        const b = 100 + Math.floor(rng() * PAGES);
        if (a === b || seen.has(pairKey(a, b))) continue;
        seen.add(pairKey(a, b));
        const at = new Date(Date.UTC(2024, 0, 1, 0, 0, labels.length)).toISOString();
        labels.push({
          datasetId: 1,
          a: Math.min(a, b),
          b: Math.max(a, b),
          label: pick(rng, ['dup', 'not', 'unsure'] as const),
          strategy: 'random',
          pi: 1,
          at,
        });
      }
      useLabels.setState({
        datasetId: 1,
        labels: new Map(labels.map((r) => [pairKey(r.a, r.b), r])),
        history: [],
      });
      render(<LabelsList urlOf={url} />);
      // The list opens on its first row.
      let rows = shown();
      let meant: string | null = rows[0].pair;
      for (let step = 0; step < STEPS; step++) {
        const before = rows;
        const r = rng();
        const list = $('[role="listbox"][aria-label="Labels"]');
        if (r < 0.15 || !list) {
          // A filter by label value: the selected pair may leave the list.
          const filter = pick(rng, ['', '', 'dup', 'not', 'unsure']);
          log.push(`show ${filter || 'all'}`);
          fireEvent.change($('select[aria-label="Show labels"]')!, { target: { value: filter } });
          rows = shown();
          const listed = new Set(rows.map((x) => x.pair));
          meant = expected(
            before.map((x) => x.pair),
            (p) => listed.has(p),
            meant,
          );
        } else {
          const key = pick(rng, [
            ...['d', 'n', 'u', 'd', 'n', 'u', 'Delete'],
            ...['ArrowUp', 'ArrowDown', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown'],
          ]);
          log.push(key);
          const at: number = meant === null ? -1 : before.findIndex((x) => x.pair === meant);
          const labelsBefore = new Map(before.map((x) => [x.pair, x.label]));
          if (!values[key] && key !== 'Delete') meant = before[moved(key, at, before.length, 10)].pair;
          const want = new Map(labelsBefore);
          if (meant !== null && values[key]) want.set(meant, values[key]);
          if (meant !== null && key === 'Delete') want.delete(meant);
          fireEvent.keyDown(list, { key });
          rows = shown();
          // Nothing but the selected pair changed (a label leaving the filter is gone from the list).
          const now = new Map(rows.map((x) => [x.pair, x.label]));
          for (const [p, l] of now) expect(l, `label of ${p}`).toBe(want.get(p));
          for (const [p] of labelsBefore) if (p !== meant) expect(now.has(p), `${p} stays listed`).toBe(true);
          meant = expected(
            before.map((x) => x.pair),
            (p) => now.has(p),
            meant,
          );
        }
        const active = rows.find((x) => x.active)?.pair ?? null;
        expect(active, 'the selected pair').toBe(meant);
      }
    });
  });
});

describe('cluster list: the selection and the keyboard cursor stay on their cluster', () => {
  const N = 24;
  /** Page seqs are not page indices (parallel parts leave gaps). */
  const seqOf = (i: number) => 1000 + 7 * i;

  function setUp(rng: Rng): StoredAnalysis {
    const rows: [number, number, number][] = [];
    const seen = new Set<string>();
    while (rows.length < 40) {
      const i = Math.floor(rng() * N);
      const j = Math.floor(rng() * N);
      if (i === j || seen.has(pairKey(i, j))) continue;
      seen.add(pairKey(i, j));
      rows.push([i, j, 0.3 + 0.7 * rng()]);
    }
    const analysis = {
      datasetId: 1,
      paramsKey: 'k',
      created: 'now',
      seqs: Float64Array.from({ length: N }, (_, i) => seqOf(i)),
      n: N,
      pairs: pairTable(rows),
      elapsedMs: 1,
      maxD: 0.1,
    } as unknown as StoredAnalysis;
    usePages.setState({
      datasetId: 1,
      loading: false,
      pages: Array.from(
        { length: N },
        (_, i) =>
          ({
            datasetId: 1,
            seq: seqOf(i),
            url: `http://c.test/${i}`,
            normUrl: `http://c.test/${i}`,
            host: 'c.test',
            status: 200,
            recordType: 'response',
            title: `Page ${i}`,
            textLength: 100,
            fingerprint: `f${i}`,
          }) as unknown as StoredPage,
      ),
    });
    useAnalysis.setState({
      analysis,
      selectedClusterId: null,
      pendingClusterId: null,
      method: 'minhash',
      mode: 'star',
      thresholds: { ...DEFAULT_THRESHOLDS, jaccard: 0.6 },
    });
    return analysis;
  }

  /** The clusters as core builds them for the store's method, thresholds and clustering: ids and members (seqs). */
  function oracle(a: StoredAnalysis) {
    const s = useAnalysis.getState();
    return clusterView(a, s.method, s.thresholds, s.mode).clusters.map((c) => ({
      id: a.seqs[c.centre >= 0 ? c.centre : c.members[0]],
      members: new Set(c.members.map((m) => a.seqs[m])),
    }));
  }

  it('over random keys, clicks, slider moves, method and clustering changes', async () => {
    await seeded((rng, log) => {
      const analysis = setUp(rng);
      render(<ClustersPane />);
      let rows = oracle(analysis);
      // sel: the opened cluster (a page seq); cur: the cursor's own cluster, undefined while it is the
      // selection (else the first row).
      let sel: number | null = null;
      let cur: number | null | undefined = undefined;
      const rowOf = (seq: number | null) => (seq === null ? -1 : rows.findIndex((c) => c.members.has(seq)));
      const activeRow = () =>
        cur !== undefined ? rowOf(cur) : sel !== null ? rowOf(sel) : rows.length ? 0 : -1;
      for (let step = 0; step < STEPS; step++) {
        const before = rows;
        const list = $('[role="listbox"][aria-label="Clusters"]');
        const r = rng();
        if (r < 0.35 || !list) {
          // Re-cluster: the Jaccard slider, now and then the method or the clustering.
          const what = rng();
          const slider = $('input[type="range"][aria-label="jaccard"]');
          act(() => {
            if (what < 0.75 && slider) {
              const v = Math.round((0.3 + 0.7 * rng()) * 100) / 100;
              log.push(`jaccard ${v}`);
              fireEvent.change(slider, { target: { value: v } });
            } else if (what < 0.75) {
              log.push('method minhash');
              fireEvent.change($('select[aria-label="Method"]')!, { target: { value: 'minhash' } });
            } else if (what < 0.9) {
              const mode = pick(rng, ['star', 'components', 'guarded'] as ClusterMode[]);
              log.push(`mode ${mode}`);
              fireEvent.change($('select[aria-label="Clustering"]')!, { target: { value: mode } });
            } else {
              const method = pick(rng, ['minhash', 'simhash', 'feature-code'] as MethodId[]);
              log.push(`method ${method}`);
              fireEvent.change($('select[aria-label="Method"]')!, { target: { value: method } });
            }
          });
          rows = oracle(analysis);
          const listed = (seq: number) => rows.some((c) => c.members.has(seq));
          // Each stays on the cluster that holds its page; when none does, it goes to the next cluster
          // of the old list that is still listed, else to none.
          const follow = (k: number | null): number | null => {
            if (k === null || listed(k)) return k;
            const at = before.findIndex((c) => c.members.has(k));
            if (at < 0) return k;
            return before.slice(at + 1).find((c) => listed(c.id))?.id ?? null;
          };
          sel = follow(sel);
          if (cur !== undefined) cur = follow(cur);
        } else if (r < 0.75) {
          const key = pick(rng, ['ArrowUp', 'ArrowDown', 'Home', 'End', 'Enter', 'Enter']);
          log.push(key);
          const at = activeRow();
          if (key === 'Enter') {
            if (at >= 0) {
              sel = before[at].id;
              cur = undefined;
            }
          } else if (before.length) {
            // A key that does not move the cursor leaves it as it was (on the selection, or the first row).
            const to = moved(key, at, before.length, 10);
            if (to !== at) cur = before[to].id;
          }
          fireEvent.keyDown(list, { key });
        } else {
          const i = Math.floor(rng() * before.length);
          log.push(`click ${i}`);
          sel = rowOf(sel) === i ? null : before[i].id;
          cur = before[i].id;
          fireEvent.click($$('.cluster-list [role="option"]')[i]);
        }
        expect(useAnalysis.getState().selectedClusterId === null, 'a selection').toBe(sel === null);
        const shownList = $('[role="listbox"][aria-label="Clusters"]');
        const options = $$('.cluster-list [role="option"]');
        const selectedRows = options.flatMap((o, i) =>
          o.getAttribute('aria-selected') === 'true' ? [i] : [],
        );
        expect(selectedRows, 'the selected cluster').toEqual(rowOf(sel) >= 0 ? [rowOf(sel)] : []);
        const want = activeRow();
        expect(shownList?.getAttribute('aria-activedescendant') ?? null, 'the cursor').toBe(
          want >= 0 ? `cluster-${want}` : null,
        );
      }
    });
  });
});

describe('rule table: a header click re-sorts, the opened rule and the cursor stay on their rules', () => {
  function Table({ rules }: { rules: Rule[] }) {
    const sort = useDust((s) => s.sort);
    const ruleFilter = useDust((s) => s.ruleFilter);
    const rows = visibleRules({ rules, saved: {} }, '', ruleFilter, sort);
    return <RuleTable rows={rows} saved={{}} />;
  }

  it('over random keys, row clicks, header clicks and filters', async () => {
    await seeded((rng, log) => {
      const rules = Array.from({ length: 14 }, (_, i) =>
        likelySubstringRule(`s${i % 3}.test`, ['/', `a${i}`], ['/', `b${i % 4}`], {
          id: 10 + i,
          support: Math.floor(rng() * 20),
        }),
      );
      useDust.setState({ selectedRule: null, ruleFilter: '', sort: { key: 'rank', dir: 1 } });
      render(<Table rules={rules} />);
      const trs = () => $$('table.rules tbody tr');
      const ids = () => trs().map((tr) => Number(tr.id.replace('rule-row-', '')));
      let rows = ids();
      let sel: number | null = null;
      // The cursor's own rule; undefined while it is on the opened rule (else the first row).
      let cur: number | null | undefined = undefined;
      const activeId = () => (cur !== undefined ? cur : (sel ?? rows[0] ?? null));
      for (let step = 0; step < STEPS; step++) {
        const before = rows;
        const r = rng();
        if (r < 0.3) {
          const h = pick(rng, ['#', 'Support', 'Site', 'Similar', 'Status']);
          log.push(`sort ${h}`);
          fireEvent.click($$('table.rules th button').find((b) => b.textContent!.startsWith(h))!);
        } else if (r < 0.45) {
          const q = pick(rng, ['', '', 'b1', 'b2', 'a1']);
          log.push(`filter "${q}"`);
          act(() => useDust.getState().setRuleFilter(q));
        }
        if (r < 0.45) {
          rows = ids();
          const listed = (id: number) => rows.includes(id);
          sel = expected(before, listed, sel);
          // An untouched cursor is on the opened rule (else the first row): it moves with it.
          if (cur !== undefined) cur = expected(before, listed, cur);
        } else if (r < 0.85 && rows.length) {
          const key = pick(rng, ['ArrowUp', 'ArrowDown', 'Home', 'End', 'PageDown', 'Enter', ' ']);
          log.push(key === ' ' ? 'Space' : key);
          const a = activeId();
          const at = a === null ? -1 : before.indexOf(a);
          const tr = trs().find((x) => x.tabIndex === 0)!;
          if (key === 'Enter' || key === ' ') {
            if (at >= 0) sel = sel === before[at] ? null : before[at];
          } else {
            const to = moved(key, at, before.length, 10);
            if (to !== at) cur = before[to];
          }
          fireEvent.keyDown(tr, { key });
        } else if (rows.length) {
          const i = Math.floor(rng() * before.length);
          log.push(`click ${i}`);
          sel = sel === before[i] ? null : before[i];
          cur = before[i];
          fireEvent.click(trs()[i]);
        }
        expect(useDust.getState().selectedRule, 'the opened rule').toBe(sel);
        const a = activeId();
        const want = a === null ? -1 : rows.indexOf(a);
        const activeRows = trs().flatMap((tr, i) => (tr.classList.contains('active') ? [i] : []));
        expect(activeRows, 'the cursor').toEqual(want >= 0 ? [want] : []);
      }
    });
  });
});

describe('pages table: the selected page stays selected and in view through sorts and filters', () => {
  const N = 60;
  const page = (seq: number, rng: Rng): StoredPage =>
    ({
      datasetId: 1,
      seq,
      url: `http://p.test/${pick(rng, ['a', 'b', 'c'])}/${seq}`,
      normUrl: `http://p.test/${seq}`,
      host: 'p.test',
      status: pick(rng, [200, 200, 404, 301]),
      statuses: [],
      mime: 'text/html',
      sizeMin: 1,
      sizeMax: Math.floor(rng() * 5000),
      recordType: 'response',
      title: `Title ${Math.floor(rng() * 100)}`,
      textLength: 10,
    }) as unknown as StoredPage;

  it('over random keys, row clicks, header clicks and filters', async () => {
    await seeded((rng, log) => {
      const pages = Array.from({ length: N }, (_, i) => page(3 * i + 1, rng));
      usePages.setState({
        datasetId: 1,
        pages,
        rankOf: new Map(pages.map((p, i) => [p.seq, i])),
        loading: false,
        filter: { url: '', host: '', status: '', mime: '' },
        sort: { key: 'seq', dir: 1 },
        selectedSeq: null,
      });
      render(<PagesTable />);
      const grid = $('[role="grid"][aria-label="Pages"]')!;
      const order = () => {
        const s = usePages.getState();
        return visiblePages(s.pages, s.filter, s.sort).map((p) => p.seq);
      };
      let rows = order();
      let sel: number | null = null;
      for (let step = 0; step < STEPS; step++) {
        const before = rows;
        const r = rng();
        if (r < 0.25) {
          const h = pick(rng, ['#', 'Status', 'URL', 'Title', 'Size']);
          log.push(`sort ${h}`);
          fireEvent.click($$('.thead button').find((b) => b.textContent!.startsWith(h))!);
        } else if (r < 0.45) {
          const q = pick(rng, ['', '', '/a/', '/b/', 'Title 1', 'c/']);
          log.push(`filter "${q}"`);
          fireEvent.change($('input[aria-label="Filter by URL or title"]')!, { target: { value: q } });
        }
        if (r < 0.45) {
          rows = order();
          sel = expected(before, (s) => rows.includes(s), sel);
        } else if (r < 0.85 && rows.length) {
          const key = pick(rng, ['ArrowUp', 'ArrowDown', 'Home', 'End']);
          log.push(key);
          sel = before[moved(key, sel === null ? -1 : before.indexOf(sel), before.length, 1)];
          fireEvent.keyDown(grid, { key });
        } else if (rows.length) {
          const tr = pick(rng, $$('.tbody [role="row"]'));
          log.push(`click ${tr.id}`);
          sel = Number(tr.id.replace('page-row-', ''));
          fireEvent.click(tr);
        }
        expect(usePages.getState().selectedSeq, 'the selected page').toBe(sel);
        // Its row is drawn and is the grid's active row: it was scrolled into view.
        if (sel !== null && rows.includes(sel))
          expect(grid.getAttribute('aria-activedescendant'), 'the active row').toBe(`page-row-${sel}`);
      }
    });
  });
});

/** A re-sort alone never moves a selection: the clusters' sizes reorder, the cluster stays (a fixed case). */
describe('a fixed case of each', () => {
  it('a labelled pair edited in row 4 goes to the top, and the selection with it', () => {
    const at = (i: number) => new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString();
    const labels = [0, 1, 2, 3, 4].map((i): StoredLabel => ({
      datasetId: 1,
      a: 2 * i,
      b: 2 * i + 1,
      label: 'dup',
      strategy: 'random',
      pi: 1,
      at: at(i),
    }));
    useLabels.setState({ datasetId: 1, labels: new Map(labels.map((r) => [pairKey(r.a, r.b), r])) });
    render(<LabelsList urlOf={(s) => `http://f.test/${s}`} />);
    const list = screen.getByRole('listbox', { name: 'Labels' });
    fireEvent.keyDown(list, { key: 'Home' });
    for (let i = 0; i < 3; i++) fireEvent.keyDown(list, { key: 'ArrowDown' });
    // Row 4 of newest-first holds pair (2, 3).
    const pairOf = (li: Element) => [...li.querySelectorAll('.url')].map((u) => u.textContent).join(' ');
    const selected = () =>
      pairOf(
        within(list)
          .getAllByRole('option')
          .find((o) => o.ariaSelected === 'true')!,
      );
    expect(selected()).toBe('http://f.test/2 http://f.test/3');
    fireEvent.keyDown(list, { key: 'n' });
    expect(pairOf(within(list).getAllByRole('option')[0])).toBe('http://f.test/2 http://f.test/3');
    expect(selected()).toBe('http://f.test/2 http://f.test/3');
    fireEvent.keyDown(list, { key: 'ArrowUp' });
    fireEvent.keyDown(list, { key: 'n' });
    const now = useLabels.getState().labels;
    expect([...now.values()].filter((l) => l.label === 'not').map((l) => pairKey(l.a, l.b))).toEqual([
      pairKey(2, 3),
    ]);
  });

  it('thresholds: the jaccard slider re-sorts the clusters, the opened one stays open', () => {
    // {0,1,2} is the larger cluster at 0.5; at 0.8 it is {3,4,5,6} that is (and {0,1} shrinks).
    const a = {
      datasetId: 1,
      paramsKey: 'k',
      created: 'now',
      seqs: Float64Array.from([50, 51, 52, 53, 54, 55, 56]),
      n: 7,
      pairs: pairTable([
        [0, 1, 0.95],
        [0, 2, 0.6],
        [0, 3, 0.1],
        [3, 4, 0.85],
        [3, 5, 0.85],
        [3, 6, 0.55],
      ]),
      elapsedMs: 1,
      maxD: 0.1,
    } as unknown as StoredAnalysis;
    usePages.setState({ pages: [], loading: false, datasetId: 1 });
    const t: Thresholds = { ...DEFAULT_THRESHOLDS, jaccard: 0.9 };
    useAnalysis.setState({
      analysis: a,
      selectedClusterId: null,
      method: 'minhash',
      mode: 'star',
      thresholds: t,
    });
    render(<ClustersPane />);
    const options = () => within(screen.getByRole('listbox', { name: 'Clusters' })).getAllByRole('option');
    // At 0.9: {0,1} only. Open it.
    fireEvent.click(options()[0]);
    expect(useAnalysis.getState().selectedClusterId).toBe(50);
    act(() => useAnalysis.getState().setThreshold('jaccard', 0.8));
    // At 0.8: {3,4,5} (3 pages) first, {0,1} second: the selection went with {0,1}.
    expect(options().map((o) => o.querySelector('.size')!.textContent)).toEqual(['3', '2']);
    expect(options()[1]).toHaveAttribute('aria-selected', 'true');
    expect(useAnalysis.getState().selectedClusterId).toBe(50);
    // Raised past every pair: the cluster is gone and nothing follows it in the old list: none.
    act(() => useAnalysis.getState().setThreshold('jaccard', 0.97));
    expect(useAnalysis.getState().selectedClusterId).toBeNull();
  });
});

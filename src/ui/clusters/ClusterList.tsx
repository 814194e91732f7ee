import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { normaliseUrl } from '../../core/url/normalize';
import { useAnalysis } from '../../state/analysis';
import { clusterListing, type shownClusters } from '../../state/clusters';
import { explains } from '../../core/dust/cluster-kind';
import { useDust } from '../../state/dust';
import { usePages } from '../../state/pages';
import { pageBySeq } from '../../state/selectors';
import { escapeBidi, fmtInt } from '../format';
import { revealDetail } from '../focus';
import { scrollActiveIntoView, useFollowSelection, useListKeys } from '../useListKeys';

const SHOWN = 100;

type View = ReturnType<typeof shownClusters>;

/**
 * The clusters as one keyboard stop: ↑/↓ move, Enter opens the cluster and moves to its detail (the
 * selection lives in the URL as `cl`). Selection and keyboard cursor are clusters (their ids), not rows:
 * a slider move re-sorts the list and both stay on their cluster; one that dissolves passes them on to
 * the next cluster of the list as it was (src/state/selection.ts).
 */
export function ClusterList({ view }: { view: View }) {
  const analysis = useAnalysis((s) => s.analysis)!;
  const selected = useAnalysis((s) => s.selectedClusterId);
  const selectCluster = useAnalysis((s) => s.selectCluster);
  const pages = usePages((p) => p.pages);
  const bySeq = pageBySeq(pages);
  const dustRun = useDust((d) => d.run);
  const selectedRule = useDust((d) => d.selectedRule);
  const rule = dustRun?.rules.find((r) => r.id === selectedRule) ?? null;
  const shown = useMemo(() => view.clusters.slice(0, SHOWN), [view]);
  const listing = useMemo(() => clusterListing(analysis, view), [analysis, view]);
  // The keyboard cursor is the selection (a click, Enter, the URL; else the first row) until the arrows
  // or a click move it; then it is a cluster of its own. Both follow their cluster when the list changes.
  const [cursor, setCursor] = useState<{ of: number | null; id?: number | null }>({ of: selected });
  const own = cursor.of === selected && cursor.id !== undefined;
  const activeId = own ? (cursor.id ?? null) : (selected ?? listing.keys[0] ?? null);
  const activeRow = activeId === null ? -1 : listing.rowOf(activeId);
  const active = activeRow < shown.length ? activeRow : -1;
  const selectedRow = selected === null ? -1 : listing.rowOf(selected);
  const followSelection = useCallback(
    (id: number | null) => {
      // A cursor of its own stays its own under the followed selection; one on the selection stays on it.
      const was = useAnalysis.getState().selectedClusterId;
      setCursor((c) => (c.of === was ? { ...c, of: id } : { of: id }));
      selectCluster(id);
    },
    [selectCluster],
  );
  useFollowSelection(listing, selected, followSelection);
  // Runs after the selection followed (effects run in order), so it is owned under the new selection.
  const followCursor = useCallback(
    (id: number | null) => setCursor({ of: useAnalysis.getState().selectedClusterId, id }),
    [],
  );
  useFollowSelection(listing, own ? (cursor.id ?? null) : null, followCursor);
  const setActive = useCallback(
    (i: number) => setCursor({ of: selected, id: listing.keys[i] }),
    [selected, listing],
  );
  const list = useRef<HTMLOListElement>(null);
  useEffect(() => {
    if (active >= 0) scrollActiveIntoView(list.current, `cluster-${active}`);
  }, [active]);
  // Opening a cluster shows its detail (below the panes): Enter takes the keyboard there, a click leaves
  // it on the list. flushSync: the detail is drawn before it is scrolled to.
  const open = useCallback(
    (i: number) => {
      flushSync(() => {
        setCursor({ of: listing.keys[i] });
        selectCluster(listing.keys[i]);
      });
      revealDetail('cluster-detail', true);
    },
    [selectCluster, listing],
  );
  const onKeyDown = useListKeys(shown.length, active, setActive, open);
  // Which clusters the selected DUST rule explains: once per rule and view, not per render.
  const explained = useMemo(() => {
    if (!rule) return null;
    return shown.map((c) =>
      explains(
        rule,
        new Set(c.members.map((m) => normaliseUrl(bySeq.get(analysis.seqs[m])?.url ?? '').href)),
      ),
    );
  }, [rule, shown, bySeq, analysis]);
  if (shown.length === 0) return null;
  return (
    <>
      <ol
        ref={list}
        className="cluster-list"
        role="listbox"
        aria-label="Clusters"
        tabIndex={0}
        aria-activedescendant={active >= 0 ? `cluster-${active}` : undefined}
        onKeyDown={onKeyDown}
      >
        {shown.map((c, i) => {
          const id = listing.keys[i];
          const first = bySeq.get(id);
          const cls = [
            selectedRow === i ? 'selected' : '',
            active === i ? 'active' : '',
            explained?.[i] ? 'explained' : '',
          ].join(' ');
          return (
            <li
              key={id}
              id={`cluster-${i}`}
              role="option"
              aria-selected={selectedRow === i}
              data-cluster={id}
              className={cls.trim()}
              title={explained?.[i] ? 'explained by the selected DUST rule' : undefined}
              onClick={() => {
                const next = selectedRow === i ? null : id;
                flushSync(() => {
                  setCursor({ of: next, id });
                  selectCluster(next);
                });
                if (next !== null) revealDetail('cluster-detail', false);
              }}
            >
              <span className="size">{c.members.length}</span>
              <span className="title">{escapeBidi(first?.title || first?.url || '(untitled)')}</span>
            </li>
          );
        })}
      </ol>
      {view.clusters.length > SHOWN && (
        <p className="meta">
          The {SHOWN} largest of {fmtInt(view.clusters.length)} clusters are listed; the export holds all.
        </p>
      )}
    </>
  );
}

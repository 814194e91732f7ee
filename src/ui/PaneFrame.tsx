import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { useLayout, type PaneId } from '../state/layout';
import { useElementWidth } from './useElementWidth';

/** The inner width of the pane frame around a pane (0 until measured): charts size themselves from it. */
const PaneWidth = createContext(0);

/** Width available to a pane's content, e.g. `const width = usePaneWidth();` then draw at `width || 300`. */
export function usePaneWidth(): number {
  return useContext(PaneWidth);
}

/**
 * One analysis pane in the grid, with the button that enlarges it to the whole main area and restores
 * it (Escape restores too). The pane itself keeps its own header and content; the
 * frame only adds the button and hides the pane while another one is enlarged (hidden, not unmounted,
 * so its charts and scroll position survive).
 */
export function PaneFrame({ id, title, children }: { id: PaneId; title: string; children: ReactNode }) {
  const enlarged = useLayout((s) => s.enlarged);
  const enlarge = useLayout((s) => s.enlarge);
  const [frame, width] = useElementWidth<HTMLDivElement>();
  const mine = enlarged === id;

  // Escape restores the enlarged pane, unless something inside it used the key first (a menu, a dialog).
  // The keyboard stays where it was: the Restore button is the same element, labelled Enlarge again.
  useEffect(() => {
    if (!mine) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) enlarge(null);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [mine, enlarge]);
  return (
    <div
      ref={frame}
      className={`pane-frame pane-frame-${id}${mine ? ' enlarged' : ''}`}
      hidden={enlarged !== null && !mine}
      data-pane={id}
    >
      <button
        type="button"
        className="pane-size"
        aria-label={mine ? 'Restore' : `Enlarge ${title}`}
        aria-pressed={mine}
        title={
          mine
            ? `Restore ${title} beside the other panes (Escape)`
            : `Enlarge ${title} to the whole main area`
        }
        onClick={() => enlarge(mine ? null : id)}
      >
        {mine ? 'Restore' : 'Enlarge'}
      </button>
      <PaneWidth.Provider value={width}>{children}</PaneWidth.Provider>
    </div>
  );
}

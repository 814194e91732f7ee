import { create } from 'zustand';

/** The three analysis panes, by the id the URL uses (`pane=`). */
export const PANE_IDS = ['clusters', 'pr', 'dust'] as const;
export type PaneId = (typeof PANE_IDS)[number];

export function isPaneId(v: string | null | undefined): v is PaneId {
  return (PANE_IDS as readonly string[]).includes(v ?? '');
}

interface LayoutState {
  /** The pane enlarged to the whole main area, or null for the three side by side. */
  enlarged: PaneId | null;
  enlarge(pane: PaneId | null): void;
}

export const useLayout = create<LayoutState>((set) => ({
  enlarged: null,
  enlarge(enlarged) {
    set({ enlarged });
  },
}));

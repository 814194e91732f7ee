import { useCallback, useLayoutEffect, useRef, type KeyboardEvent } from 'react';
import { follow, type Listing } from '../state/selection';

/**
 * One keyboard stop per list (WAI-ARIA listbox / grid pattern with aria-activedescendant): Tab reaches the
 * list once, ↑/↓ (or ←/→ with `horizontal`), PageUp/PageDown, Home/End move the active row, Enter or Space
 * opens it. The caller owns which row is active (usually the selection itself), so the URL, the panes and
 * the keyboard agree.
 *
 *   const onKeyDown = useListKeys(items.length, active, setActive, open);
 *   <ul role="listbox" tabIndex={0} aria-activedescendant={`x-${active}`} onKeyDown={onKeyDown}>…
 */
export function useListKeys(
  count: number,
  active: number,
  setActive: (index: number) => void,
  open?: (index: number) => void,
  opts: { page?: number; horizontal?: boolean } = {},
): (e: KeyboardEvent) => void {
  const page = opts.page ?? 10;
  const horizontal = opts.horizontal ?? false;
  return useCallback(
    (e: KeyboardEvent) => {
      if (count === 0) return;
      const cur = active >= 0 && active < count ? active : -1;
      let next: number;
      switch (e.key) {
        case 'ArrowDown':
          if (horizontal) return;
          next = Math.min(count - 1, cur + 1);
          break;
        case 'ArrowUp':
          if (horizontal) return;
          next = Math.max(0, cur - 1);
          break;
        case 'ArrowRight':
          if (!horizontal) return;
          next = Math.min(count - 1, cur + 1);
          break;
        case 'ArrowLeft':
          if (!horizontal) return;
          next = Math.max(0, cur - 1);
          break;
        case 'PageDown':
          next = Math.min(count - 1, cur + page);
          break;
        case 'PageUp':
          next = Math.max(0, cur - page);
          break;
        case 'Home':
          next = 0;
          break;
        case 'End':
          next = count - 1;
          break;
        case 'Enter':
        case ' ':
          if (cur >= 0 && open) {
            e.preventDefault();
            open(cur);
          }
          return;
        default:
          return;
      }
      e.preventDefault();
      if (next !== cur) setActive(next);
    },
    [count, active, setActive, open, page, horizontal],
  );
}

/**
 * Brings the active row of a list into view (call from an effect when its row changes: a keyboard move,
 * or the list re-sorted under it). While the keyboard is in the list the page follows it too; otherwise
 * only the list's own scroll box moves, so a list that loads or re-sorts out of the way does not scroll
 * the page away from what the analyst is reading.
 */
export function scrollActiveIntoView(container: HTMLElement | null, id: string): void {
  const el = container?.ownerDocument.getElementById(id);
  if (!container || !el) return;
  if (container.contains(container.ownerDocument.activeElement)) {
    el.scrollIntoView?.({ block: 'nearest' });
    return;
  }
  const box = scrollBox(container);
  if (!box) return;
  const r = el.getBoundingClientRect();
  const b = box.getBoundingClientRect();
  const top = b.top + box.clientTop;
  const bottom = top + box.clientHeight;
  if (r.top < top) box.scrollTop -= top - r.top;
  else if (r.bottom > bottom) box.scrollTop += Math.min(r.bottom - bottom, r.top - top);
}

/** The element that scrolls a list's rows: the list itself, or the nearest ancestor that scrolls. */
function scrollBox(el: HTMLElement): HTMLElement | null {
  for (let e: HTMLElement | null = el; e; e = e.parentElement) {
    // Never the page's own scroll box (main): a labels list that fits its box would otherwise scroll
    // the page down to itself on load (issue #24, item 6). The first box that may scroll is the list's.
    if (e.matches('main, body')) return null;
    if (/auto|scroll/.test(getComputedStyle(e).overflowY)) return e.scrollHeight > e.clientHeight ? e : null;
  }
  return null;
}

/**
 * Keeps a list's selection on its item when the list changes (src/state/selection.ts): the selection is
 * the item's identity, so a re-sort needs nothing; when the item leaves the list, `select` is called with
 * the next item of the old order still listed, or null. A layout effect: the moved selection is drawn
 * before the next paint, and no key can act on the old one in between. `listing` must change identity
 * only when the list does (useMemo).
 */
export function useFollowSelection<K>(
  listing: Listing<K>,
  selected: K | null,
  select: (k: K | null) => void,
): void {
  const before = useRef(listing);
  useLayoutEffect(() => {
    const old = before.current;
    before.current = listing;
    if (old === listing) return;
    const next = follow(old, listing, selected);
    if (next !== selected) select(next);
  }, [listing, selected, select]);
}

import { useCallback, type KeyboardEvent } from 'react';

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
 * Scrolls the active row of a list into view (call from an effect when the active index changes), while
 * the keyboard is in the list: a list that loads or re-sorts out of the way (the labels list of a dataset
 * just opened) must not scroll the page away from what the analyst reads (issue #24, item 6).
 */
export function scrollActiveIntoView(container: HTMLElement | null, id: string): void {
  if (!container || !container.contains(container.ownerDocument.activeElement)) return;
  container.ownerDocument.getElementById(id)?.scrollIntoView?.({ block: 'nearest' });
}

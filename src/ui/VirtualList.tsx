import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type CSSProperties,
  type ReactNode,
} from 'react';
import { useListKeys } from './useListKeys';

/**
 * Browsers stop laying out elements taller than about 33.5 million pixels (Chromium's LayoutUnit limit);
 * Firefox's limit is lower still. Beyond this many pixels the scroll range is compressed: the sizer stays
 * this tall and a scroll position maps linearly onto the rows, so a list of millions stays reachable to
 * its last row.
 */
const MAX_SCROLL_PX = 8_000_000;

export interface VirtualWindow {
  /** First and one-past-last row rendered (the rows in view plus the overscan). */
  first: number;
  last: number;
  /** Height of the sizer element (the scroll range). */
  sizer: number;
  /** Top of row `i` inside the sizer. */
  top(i: number): number;
  /** The scrollTop that brings row `i` into view with the least movement (from `scrollTop`). */
  scrollFor(i: number, scrollTop: number): number;
}

/**
 * Which rows of a fixed-row-height list to render for a viewport (pure, so it is tested without a DOM).
 * `scale` > 1 when the list is taller than MAX_SCROLL_PX: then one pixel of scroll moves `scale` pixels of
 * rows, and rows are placed relative to the current scroll position.
 */
export function virtualWindow(
  count: number,
  rowHeight: number,
  scrollTop: number,
  height: number,
  overscan: number,
): VirtualWindow {
  const total = count * rowHeight;
  const sizer = Math.min(total, MAX_SCROLL_PX);
  const scale = total > sizer && sizer > height ? (total - height) / (sizer - height) : 1;
  const offset = scrollTop * scale; // the rows' own coordinate at the top of the viewport
  const first = Math.max(0, Math.floor(offset / rowHeight) - overscan);
  const last = Math.min(count, Math.ceil((offset + height) / rowHeight) + overscan);
  return {
    first,
    last,
    sizer,
    top: (i) => scrollTop + (i * rowHeight - offset),
    scrollFor(i, st) {
      const at = i * rowHeight;
      const now = st * scale;
      const want = at < now ? at : at + rowHeight > now + height ? at + rowHeight - height : now;
      return want / scale;
    },
  };
}

export interface VirtualListProps {
  count: number;
  /** Every row is this tall (px): what makes the window computable without measuring rows. */
  rowHeight: number;
  /** Rows rendered beyond each edge of the viewport, so a fast scroll does not show blank space first. */
  overscan?: number;
  /** Row that the keyboard moves (-1 for none); the caller owns it (often the selection itself). */
  active: number;
  onActive(index: number): void;
  /** Enter or Space on the active row. */
  onOpen?(index: number): void;
  /** DOM id of row `i`: the rendered row must carry it (aria-activedescendant points at it). */
  rowId(index: number): string;
  /** Row `i`, given the style that places it; it must set `key`. */
  renderRow(index: number, style: CSSProperties): ReactNode;
  /** Shown instead of the rows when `count` is 0. */
  empty?: ReactNode;
  /** The list shrinks to its rows up to this height (px); without it the height comes from CSS. */
  maxHeight?: number;
  className?: string;
  role: 'grid' | 'listbox' | 'list';
  'aria-label': string;
  'data-testid'?: string;
}

/**
 * The one virtual list of the workbench (pages table, a page's outlinks and headers): renders only the
 * rows in view plus a small overscan, at a fixed row height, inside its own scroll container. A page
 * with 200,000 outlinks thus costs some 30 DOM rows instead of 200,000 (which froze the tab for two
 * minutes). The container is one keyboard stop (useListKeys: ↑/↓, PageUp/PageDown, Home/End, Enter), and
 * a keyboard move scrolls the active row into view.
 */
export function VirtualList(props: VirtualListProps) {
  const { count, rowHeight, overscan = 8, active, onActive, onOpen, rowId, renderRow, maxHeight } = props;
  const box = useRef<HTMLDivElement | null>(null);
  const [el, setEl] = useState<HTMLDivElement | null>(null);
  const [scrollTop, setScrollTop] = useState(0);
  // Until measured (and in jsdom, which lays nothing out) assume a viewport of about 400 px.
  const [measured, setMeasured] = useState(0);
  const height = measured > 0 ? measured : Math.min(maxHeight ?? 400, 400);

  const attach = useCallback((e: HTMLDivElement | null) => {
    box.current = e;
    setEl(e);
    if (e?.clientHeight) setMeasured(e.clientHeight);
  }, []);
  useEffect(() => {
    // The observer also reports once on observe, so a list laid out after mounting is measured.
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => setMeasured((h) => (h === el.clientHeight ? h : el.clientHeight)));
    ro.observe(el);
    return () => ro.disconnect();
  }, [el]);

  // A list that shrank (a filter) keeps a scroll position past its end until the browser clamps it.
  const maxTop = Math.max(0, Math.min(count * rowHeight, MAX_SCROLL_PX) - height);
  const win = virtualWindow(count, rowHeight, Math.min(scrollTop, maxTop), height, overscan);
  const moveTo = useCallback(
    (i: number) => {
      onActive(i);
      const c = box.current;
      if (!c) return;
      const next = win.scrollFor(i, c.scrollTop);
      if (Math.abs(next - c.scrollTop) >= 0.5) {
        c.scrollTop = next;
        setScrollTop(c.scrollTop);
      }
    },
    [onActive, win],
  );
  // The rows moved under the active one (a re-sort, a filter) or another became active elsewhere (a
  // click, the URL): its row is brought into view. A keyboard move has scrolled already (moveTo).
  const shownActive = useRef(active);
  useLayoutEffect(() => {
    if (shownActive.current === active) return;
    shownActive.current = active;
    const c = box.current;
    if (!c || active < 0 || active >= count) return;
    const next = virtualWindow(count, rowHeight, c.scrollTop, height, overscan).scrollFor(
      active,
      c.scrollTop,
    );
    if (Math.abs(next - c.scrollTop) >= 0.5) {
      c.scrollTop = next;
      setScrollTop(c.scrollTop);
    }
  }, [active, count, rowHeight, height, overscan]);
  const onKeyDown = useListKeys(count, active, moveTo, onOpen, {
    page: Math.max(1, Math.floor(height / rowHeight) - 1),
  });

  const rows: ReactNode[] = [];
  for (let i = win.first; i < win.last; i++) {
    rows.push(renderRow(i, { position: 'absolute', left: 0, right: 0, top: win.top(i), height: rowHeight }));
  }
  const style: CSSProperties | undefined =
    maxHeight === undefined ? undefined : { height: Math.max(rowHeight, Math.min(maxHeight, win.sizer)) };
  return (
    <div
      className={props.className}
      style={style}
      ref={attach}
      role={props.role}
      aria-label={props['aria-label']}
      aria-rowcount={props.role === 'grid' ? count : undefined}
      aria-activedescendant={active >= win.first && active < win.last ? rowId(active) : undefined}
      data-testid={props['data-testid']}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
    >
      {count === 0 ? props.empty : <div style={{ height: win.sizer, position: 'relative' }}>{rows}</div>}
    </div>
  );
}

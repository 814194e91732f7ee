import { useEffect, useState } from 'react';

/**
 * The content-box width of an element, kept current with a ResizeObserver (0 until measured, and in
 * environments without one, such as jsdom). Charts and URL cells size themselves from it instead of a
 * fixed number, so an enlarged pane or a wider column shows more. Returns a callback ref (so an element
 * that appears later is measured too), the width and the element.
 *
 *   const [ref, width, el] = useElementWidth<HTMLDivElement>();  <div ref={ref}>…
 */
export function useElementWidth<T extends HTMLElement>(): [(el: T | null) => void, number, T | null] {
  const [el, setEl] = useState<T | null>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver((entries) => {
      const w = Math.floor(entries[entries.length - 1].contentRect.width);
      setWidth((old) => (old === w ? old : w));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [el]);
  return [setEl, width, el];
}

/** Average advance of a URL character in the element's font (canvas measurement; 0.6 em without one). */
export function urlCharWidth(el: Element | null): number {
  const style = el ? getComputedStyle(el) : null;
  const size = style ? parseFloat(style.fontSize) || 12 : 12;
  const ctx = typeof document !== 'undefined' ? canvasContext() : null;
  if (!ctx || !style) return 0.6 * size;
  ctx.font = `${style.fontSize} ${style.fontFamily}`; // URLs are shown in the normal weight
  const sample = 'http://www.example-news.test/story?id=1234&sessionid=ab12';
  const w = ctx.measureText(sample).width / sample.length;
  return w > 0 ? w : 0.6 * size;
}

let canvas: CanvasRenderingContext2D | null | undefined;
function canvasContext(): CanvasRenderingContext2D | null {
  if (canvas === undefined) {
    try {
      canvas = document.createElement('canvas').getContext('2d');
    } catch {
      canvas = null;
    }
  }
  return canvas;
}

/** How many URL characters fit in `width` pixels of the element's font (at least 16). */
export function charsThatFit(el: Element | null, width: number): number {
  return Math.max(16, Math.floor(width / urlCharWidth(el)));
}

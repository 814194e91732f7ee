import { memo, useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { Comparison, CompareRow, Piece } from '../core/text/compare';
import { escapeBidi, fmtBytes, fmtInt, plural } from './format';
import { Url } from './Url';
import { pairShown } from '../core/url/distinguish';
import './compare.css';

/** What the header of a side says about its page. */
export interface SideInfo {
  url?: string;
  title?: string;
  /** Payload size in bytes; -1 unknown. */
  size?: number;
}

/** The keys that move between differences (free elsewhere in the app: labels use d n u z ← →). */
export const NEXT_KEY = ']';
export const PREV_KEY = '[';

/**
 * The comparison most recently shown or used: ] and [ pressed outside any comparison (nothing focused, a
 * button of the label keys) act on it, so the labelling keys and these work together.
 */
let latest: object | null = null;

/**
 * Two texts side by side in one scroll box: each row holds the same passage of A and of B, so both
 * columns scroll together and stay aligned by the diff. Differences are counted and numbered; the
 * buttons (or ] and [) move to the next or previous one and scroll it into view in both columns. Text
 * only, never markup; bidirectional controls are written out (escapeBidi), so no difference hides in them.
 */
export function CompareView({
  comparison,
  sides,
  texts,
}: {
  /** null while the texts load or the comparison runs. */
  comparison: Comparison | null;
  sides: [SideInfo, SideInfo];
  /** The texts themselves: shown unmarked when they are not compared word by word. */
  texts?: [string, string];
}) {
  const root = useRef<HTMLDivElement>(null);
  const scroller = useRef<HTMLDivElement>(null);
  const me = useRef({});
  // The difference shown, for this comparison; `n` counts moves, so a move that stays (next on the last
  // one: no wrap, the position says it is the last) still brings it back into view.
  const [pos, setPos] = useState<{ of: Comparison | null; at: number; n: number }>({
    of: null,
    at: -1,
    n: 0,
  });
  const count = comparison?.kind === 'compared' ? comparison.differences : 0;
  const at = pos.of === comparison ? pos.at : -1;
  const go = useCallback(
    (step: 1 | -1) => {
      latest = me.current;
      setPos((p) => {
        const from = p.of === comparison ? p.at : -1;
        const to = from < 0 ? (step > 0 ? 0 : count - 1) : Math.max(0, Math.min(count - 1, from + step));
        return { of: comparison, at: to, n: p.n + 1 };
      });
    },
    [comparison, count],
  );

  useEffect(() => {
    const mine = me.current;
    latest = mine;
    return () => {
      if (latest === mine) latest = null;
    };
  }, []);

  useEffect(() => {
    if (!count) return;
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || (e.key !== NEXT_KEY && e.key !== PREV_KEY)) return;
      const t = e.target instanceof Element ? e.target : null;
      const inside = !!t && !!root.current?.contains(t);
      if (!inside) {
        if (latest !== me.current) return;
        if (t?.closest('[data-compare], input, select, textarea, [contenteditable="true"]')) return;
      }
      e.preventDefault();
      go(e.key === NEXT_KEY ? 1 : -1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [count, go]);

  // Bring the difference into view in both columns: its start a third down the box, and the box into
  // the window when it is not (the least scroll that shows it).
  useLayoutEffect(() => {
    const box = scroller.current;
    if (pos.n === 0 || at < 0 || !box) return;
    const marks = [...box.querySelectorAll<HTMLElement>(`[data-diff="${at}"]`)];
    if (!marks.length) return;
    const top0 = box.getBoundingClientRect().top;
    const top = Math.min(...marks.map((m) => m.getBoundingClientRect().top - top0 + box.scrollTop));
    box.scrollTop = Math.max(0, top - box.clientHeight / 3);
    // Both sides' marks in the window: the lowest first, then the highest (each the least scroll), so
    // B's highlight is not left below the window when it ends lower than A's.
    const lowest = marks.reduce((a, m) =>
      m.getBoundingClientRect().bottom > a.getBoundingClientRect().bottom ? m : a,
    );
    lowest.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
    marks[0].scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [pos, at]);

  return (
    <div
      ref={root}
      className="compare"
      role="group"
      aria-label="Comparison of A and B"
      data-compare=""
      onFocus={() => (latest = me.current)}
      onPointerDown={() => (latest = me.current)}
    >
      <div className="compare-bar">
        <span data-testid="diff-count" className="diff-count">
          <Summary comparison={comparison} />
        </span>
        <button
          type="button"
          aria-label="Previous difference"
          title={`Previous difference (${PREV_KEY})`}
          disabled={!count}
          onClick={() => go(-1)}
        >
          ↑ previous <kbd>{PREV_KEY}</kbd>
        </button>
        <button
          type="button"
          aria-label="Next difference"
          title={`Next difference (${NEXT_KEY})`}
          disabled={!count}
          onClick={() => go(1)}
        >
          ↓ next <kbd>{NEXT_KEY}</kbd>
        </button>
        <span data-testid="diff-position" className="meta" aria-live="polite">
          {count > 0 && at >= 0 ? `Difference ${fmtInt(at + 1)} of ${fmtInt(count)}` : ''}
        </span>
      </div>
      <div
        ref={scroller}
        className="compare-scroll page-text"
        data-testid="compare-scroll"
        tabIndex={0}
        aria-label="Texts A and B, scrolled together"
      >
        <div className="compare-grid">
          <Head side="A" info={sides[0]} other={sides[1]} />
          <Head side="B" info={sides[1]} other={sides[0]} />
          {comparison?.kind === 'compared' ? (
            comparison.rows.map((r, i) => (
              <Row key={i} row={r} at={r.firstDiff <= at && at <= r.lastDiff ? at : -1} />
            ))
          ) : (
            <>
              <div className="compare-cell compare-a">{texts ? escapeBidi(texts[0]) : 'loading…'}</div>
              <div className="compare-cell compare-b">{texts ? escapeBidi(texts[1]) : 'loading…'}</div>
            </>
          )}
        </div>
      </div>
    </div>
  );
}

function Summary({ comparison: c }: { comparison: Comparison | null }) {
  if (!c) return <>comparing…</>;
  if (c.kind === 'too-long')
    return (
      <>
        Not compared word by word: {plural(c.wordsA, 'word')} and {plural(c.wordsB, 'word')}, more than{' '}
        {fmtInt(c.limit)} a side. Shown unmarked, not aligned.
      </>
    );
  if (c.kind === 'too-different')
    return (
      <>Not marked: the texts differ in more than {fmtInt(c.limit)} words. Shown unmarked, not aligned.</>
    );
  return (
    <>
      {c.differences ? plural(c.differences, 'difference') : 'No difference: the texts have the same words'}
    </>
  );
}

function Head({ side, info, other }: { side: 'A' | 'B'; info: SideInfo; other: SideInfo }) {
  // What tells the two URLs apart, the origin kept (each head stands alone).
  const shown = info.url && other.url ? pairShown(info.url, other.url)[0] : undefined;
  return (
    <div className={`compare-head compare-${side.toLowerCase()}`} data-testid="compare-head">
      <strong className="compare-side">{side}</strong> <Url url={info.url} shown={shown} expandable />
      <div className="compare-title" title={info.title ? escapeBidi(info.title) : undefined}>
        {info.title ? escapeBidi(info.title) : '(no title)'}
        {info.size !== undefined && info.size >= 0 ? ` · ${fmtBytes(info.size)}` : ''}
      </div>
    </div>
  );
}

/** A row draws again only when the difference shown enters or leaves it. */
const Row = memo(function Row({ row, at }: { row: CompareRow; at: number }) {
  return (
    <>
      <div className="compare-cell compare-a">
        <Pieces pieces={row.a} side="a" at={at} />
      </div>
      <div className="compare-cell compare-b">
        <Pieces pieces={row.b} side="b" at={at} />
      </div>
    </>
  );
});

function Pieces({ pieces, side, at }: { pieces: Piece[]; side: 'a' | 'b'; at: number }) {
  return (
    <>
      {pieces.map((p, i) =>
        p.diff < 0 ? (
          escapeBidi(p.text)
        ) : (
          <mark
            key={i}
            data-diff={p.diff}
            className={`${p.text ? (side === 'a' ? 'del' : 'ins') : 'gap'}${p.diff === at ? ' current' : ''}`}
            aria-current={p.diff === at ? 'true' : undefined}
            title={
              p.text
                ? undefined
                : side === 'a'
                  ? 'B has words here that A lacks'
                  : 'A has words here that B lacks'
            }
          >
            {escapeBidi(p.text)}
          </mark>
        ),
      )}
    </>
  );
}

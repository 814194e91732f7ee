import { useEffect, useMemo, useRef, useState } from 'react';
import { ruleSides, type Rule, type SubstringRule } from '../../core/dust';
import { useDust, type RuleSortKey } from '../../state/dust';
import { keyedListing } from '../../state/selection';
import { escapeBidi, fmtInt } from '../format';
import { scrollActiveIntoView, useFollowSelection, useListKeys } from '../useListKeys';

/** Badges for rules not from Fig. 1's envelopes (the paper's own have none). */
const ORIGINS: Partial<Record<NonNullable<SubstringRule['origin']>, { label: string; title: string }>> = {
  pairs: { label: 'pairs', title: 'derived from pairs of identical pages (not in the paper)' },
  merged: { label: 'merged', title: 'likely rules that differ only where the wildcards stand, merged' },
  transfer: { label: 'transfer', title: 'valid on another site of the list, validated again on this one' },
};

/** Column headers: short enough that every column fits a 500 px pane, the full meaning on hover. */
const HEADS: { key: RuleSortKey; label: string; title: string; num?: boolean }[] = [
  { key: 'rank', label: '#', title: 'Rank by likeliness (Fig. 1: support, then T_high support)', num: true },
  { key: 'site', label: 'Site', title: 'Site the rule was mined on' },
  { key: 'support', label: 'Support', title: 'Support: instances in the URL list (§4)', num: true },
  {
    key: 'likely',
    label: 'Similar',
    title: 'Likely-similar support: instances whose sizes or sketches say the pages may be alike (§4)',
    num: true,
  },
  {
    key: 'status',
    label: 'Status',
    title: 'Validation (Fig. 3): valid, likely (not judged) or refuted; +similar/−not samples',
  },
  {
    key: 'saved',
    label: 'Saved',
    title:
      'URLs saved: list URLs canonisation merges into another listed URL, each counted once, under the first rule that rewrites it (the column adds up to the summary); – for rules not applied',
    num: true,
  },
  {
    key: 'adds',
    label: 'Adds',
    title:
      'What the rule adds beyond the others: URLs canonisation would keep apart without it (0: every merge it makes, another rule makes too); – for rules not applied',
    num: true,
  },
];

/** Where a scoped rule is applied (core/dust/scope.ts), in words for its badge and tooltip. */
function scopeText(r: Rule): { label: string; title: string } | null {
  if (!r.scope) return null;
  if (r.scope.urls) {
    const k = r.scope.urls.length;
    return {
      label: `on ${fmtInt(k)} URL${k === 1 ? '' : 's'}`,
      title: `it rewrites its own rewrites (x → x.php → x.php.php …): applied only to the ${fmtInt(k)} URLs whose rewrite is a fetched page of the same text, each named in the crawler file`,
    };
  }
  const n = r.scope.sections.length;
  return {
    label: n === 0 ? 'applied nowhere' : `in ${fmtInt(n)} section${n === 1 ? '' : 's'}`,
    title:
      n === 0
        ? `valid, but in none of the ${fmtInt(r.scope.applicable)} sections where it rewrites a URL of the crawl do half its rewrites land on a fetched page of the same text: not applied`
        : `applied only where it held (half its rewrites there land on a fetched page of the same text), ${fmtInt(r.scope.applicable)} sections rewritten in all: ${r.scope.sections.map(escapeBidi).join(', ')}`,
  };
}

/**
 * The support table: one keyboard stop (↑/↓, Home/End, PageUp/PageDown move between rows, Enter or Space
 * opens the rule's instances below the panes), sortable headers as buttons, every column visible.
 */
export function RuleTable({
  rows,
  saved,
  only,
}: {
  rows: Rule[];
  saved: Record<number, number>;
  only?: Record<number, number>;
}) {
  const selectedRule = useDust((s) => s.selectedRule);
  const selectRule = useDust((s) => s.selectRule);
  const sort = useDust((s) => s.sort);
  const setSort = useDust((s) => s.setSort);
  // The rule the keyboard is on: a rule, not a row, so a re-sort or a filter leaves it on its rule, as
  // it leaves the opened rule (src/state/selection.ts). Untouched (undefined) it is on the opened rule,
  // else on the first row; null: on none.
  const [activeId, setActiveId] = useState<number | null | undefined>(undefined);
  const body = useRef<HTMLTableSectionElement>(null);
  const fromKeys = useRef(false);
  const focusRow = useRef(false);
  const listing = useMemo(() => keyedListing(rows.map((r) => r.id)), [rows]);
  const cursorId = activeId !== undefined ? activeId : (selectedRule ?? listing.keys[0] ?? null);
  const activeIndex = cursorId === null ? -1 : listing.rowOf(cursorId);
  useFollowSelection(listing, selectedRule, selectRule);
  useFollowSelection(listing, activeId ?? null, setActiveId);
  const open = (i: number) => {
    const id = rows[i].id;
    selectRule(selectedRule === id ? null : id);
    // The instances open under the panes: bring them into view without taking the keyboard away.
    if (fromKeys.current)
      requestAnimationFrame(() =>
        document.querySelector('.rule-detail')?.scrollIntoView?.({ block: 'nearest', behavior: 'smooth' }),
      );
  };
  const onKeyDown = useListKeys(
    rows.length,
    activeIndex,
    (i) => {
      fromKeys.current = true;
      focusRow.current = true;
      setActiveId(rows[i].id);
    },
    open,
  );

  // Roving focus: the active row holds the one tab stop, and the keyboard moves focus with it. A re-sort
  // (a header clicked) moves the row: it is scrolled back into view, the focus left where it is.
  useEffect(() => {
    const tr = body.current?.querySelector<HTMLElement>(`tr[data-index="${activeIndex}"]`);
    if (!tr) return;
    if (focusRow.current) tr.focus();
    else scrollActiveIntoView(body.current, tr.id);
    focusRow.current = false;
  }, [activeIndex, rows]);
  // One row is always reachable by Tab, even when the cursor is on none.
  const tabStop = activeIndex >= 0 ? activeIndex : 0;

  return (
    <table className="rules" aria-label="Rules">
      <thead>
        <tr>
          <Head h={HEADS[0]} sort={sort} setSort={setSort} />
          <th scope="col" className="rule">
            Rule α → β
          </th>
          {HEADS.slice(1).map((h) => (
            <Head key={h.key} h={h} sort={sort} setSort={setSort} />
          ))}
        </tr>
      </thead>
      <tbody
        ref={body}
        onKeyDown={(e) => {
          fromKeys.current = true;
          onKeyDown(e);
        }}
        onMouseDown={() => (fromKeys.current = false)}
      >
        {rows.map((r, i) => {
          const t = ruleSides(r);
          const origin = r.kind === 'substring' && r.origin ? ORIGINS[r.origin] : undefined;
          const selected = selectedRule === r.id;
          const scope = scopeText(r);
          return (
            <tr
              key={r.id}
              id={`rule-row-${r.id}`}
              data-index={i}
              tabIndex={i === tabStop ? 0 : -1}
              aria-current={selected ? true : undefined}
              className={`${selected ? 'selected' : ''}${i === activeIndex ? ' active' : ''}`}
              onClick={() => {
                fromKeys.current = false;
                setActiveId(r.id);
                open(i);
              }}
            >
              <td className="num">{i + 1}</td>
              <td className="rule" title={r.reason}>
                <RuleSide text={t.alpha} /> → <RuleSide text={t.beta} />
                {r.direction === 'growing' ? ' (growing)' : ''}
                {origin && (
                  <span className="badge" title={origin.title}>
                    {origin.label}
                  </span>
                )}
                {r.absorbs && (
                  <span
                    className="badge"
                    title={`special cases folded under it: ${escapeBidi(r.absorbs.spellings.join('; '))}`}
                  >
                    absorbs {fmtInt(r.absorbs.count)}
                  </span>
                )}
                {scope && (
                  <span className="badge scope" title={scope.title}>
                    {scope.label}
                  </span>
                )}
              </td>
              <td className="site" title={escapeBidi(r.site)}>
                {escapeBidi(r.site)}
              </td>
              <td className="num">{fmtInt(r.support)}</td>
              <td className="num">{fmtInt(r.likelySimilarSupport)}</td>
              {r.sample ? (
                <td className="status" title={`${r.reason} — ${sampleNote(r.sample)}`}>
                  <span className="badge rule-unvalidated">not validated</span>{' '}
                  <span className="meta">
                    {r.sample.instances === 0
                      ? 'no instance in the crawl’s URLs'
                      : `${fmtInt(r.sample.inSample)} of ${fmtInt(r.sample.instances)} instances in the sample`}
                  </span>
                </td>
              ) : (
                <td className="status" title={r.reason}>
                  <span className={`badge rule-${r.status}`}>{r.status}</span>{' '}
                  <span className="meta">
                    +{r.positives}/−{r.negatives}
                  </span>
                </td>
              )}
              <td className="num saved">{saved[r.id] === undefined ? '–' : fmtInt(saved[r.id])}</td>
              <td className="num adds">{only?.[r.id] === undefined ? '–' : fmtInt(only[r.id])}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** A sample's rule not validated, in words (its cell's title). */
function sampleNote(c: NonNullable<Rule['sample']>): string {
  if (c.instances === 0)
    return 'not validated: it rewrites no URL of the crawl’s index into another URL of it, so no instance can be read';
  const read = c.inHand - c.inSample;
  return `not validated: ${c.inSample} of ${c.instances} instances in the crawl’s index have both URLs in the sample${read > 0 ? `, ${read} more with a partner read` : ''}; validation needs both pages of an instance`;
}

function Head({
  h,
  sort,
  setSort,
}: {
  h: (typeof HEADS)[number];
  sort: { key: RuleSortKey; dir: 1 | -1 };
  setSort: (k: RuleSortKey) => void;
}) {
  const on = sort.key === h.key;
  return (
    <th
      scope="col"
      className={h.num ? 'num' : undefined}
      aria-sort={on ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}
    >
      <button type="button" title={`${h.title} — sort`} onClick={() => setSort(h.key)}>
        {h.label}
        {on ? (sort.dir === 1 ? ' ▲' : ' ▼') : ''}
      </button>
    </th>
  );
}

/**
 * One side of a rule: its text as code, or — for an empty side (`.html →` deletes `.html`) — a mark
 * that reads as "nothing", so the rule does not look cut off.
 */
export function RuleSide({ text }: { text: string }) {
  if (text === '')
    return (
      <code className="rule-empty-side" title="the empty string: the rule deletes the left side">
        (nothing)
      </code>
    );
  return <code>{escapeBidi(text)}</code>;
}

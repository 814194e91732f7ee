import { useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { LabelValue } from '../../core/eval/estimators';
import { pairKey } from '../../core/eval/pair-key';
import type { StoredLabel } from '../../db/schema';
import { useLabels } from '../../state/labels';
import { keyedListing } from '../../state/selection';
import { Choice, SearchBox } from '../Controls';
import { fmtInt, plural } from '../format';
import { Url } from '../Url';
import { pairShown } from '../../core/url/distinguish';
import { scrollActiveIntoView, useFollowSelection, useListKeys } from '../useListKeys';

/**
 * The keys that label a pair, in the queue and in this list alike: d, n, u, and y for duplicate as in
 * dedupe's console labeller (y/n/u).
 */
export const LABEL_KEYS: Record<string, LabelValue> = { d: 'dup', y: 'dup', n: 'not', u: 'unsure' };

const LABEL_NAMES: Record<LabelValue, string> = { dup: 'duplicate', not: 'not', unsure: 'unsure' };
const LABEL_VALUES = Object.keys(LABEL_NAMES) as LabelValue[];

/** Rows drawn at once: a labelled sample is hundreds of pairs; past this the filter narrows it. */
const SHOWN = 500;

/**
 * Every label of the dataset, newest first, to review and correct: filter by label or by text in either
 * URL; the list is one tab stop (↑/↓ move), d / n / u change the active row's label, Delete removes it,
 * z undoes the last label change (an import's as one).
 * The estimates above the list and in the PR pane follow at once (one selector, state/label-estimates.ts).
 *
 * The active row is a pair (its key), not a row: a changed label is the newest and moves to the top, and
 * the selection moves with it, so the next key acts on the pair the analyst chose (issue #24). A pair that
 * leaves the list (filtered out by its new label, deleted) passes the selection to the pair after it.
 */
export function LabelsList({ urlOf }: { urlOf: (seq: number) => string | undefined }) {
  const labels = useLabels((s) => s.labels);
  const relabel = useLabels((s) => s.relabel);
  const remove = useLabels((s) => s.remove);
  const undo = useLabels((s) => s.undo);
  const canUndo = useLabels((s) => s.history.length > 0);
  const [value, setValue] = useState<LabelValue | ''>('');
  const [text, setText] = useState('');
  // undefined until the analyst picks a row: then the first row (so d / n / u work at once).
  const [chosen, setChosen] = useState<string | null | undefined>(undefined);
  const list = useRef<HTMLUListElement>(null);

  const rows = useMemo(() => {
    const q = text.trim().toLowerCase();
    return [...labels.values()]
      .filter(
        (r) =>
          (!value || r.label === value) &&
          (!q ||
            (urlOf(r.a) ?? '').toLowerCase().includes(q) ||
            (urlOf(r.b) ?? '').toLowerCase().includes(q)),
      )
      .sort((x, y) => (x.at < y.at ? 1 : x.at > y.at ? -1 : x.a - y.a || x.b - y.b));
  }, [labels, value, text, urlOf]);
  const shown = rows.length > SHOWN ? rows.slice(0, SHOWN) : rows;
  const listing = useMemo(() => keyedListing(rows.map((r) => pairKey(r.a, r.b))), [rows]);
  // Until the analyst picks a row the first is selected — as a pair like any other, so it stays on
  // that pair when the list changes (d / n / u work at once).
  if (chosen === undefined && listing.keys.length > 0) setChosen(listing.keys[0]);
  const activeKey = chosen === undefined ? (listing.keys[0] ?? null) : chosen;
  useFollowSelection(listing, activeKey, setChosen);
  const at = activeKey === null ? -1 : listing.rowOf(activeKey);
  const current = at < shown.length ? at : -1;
  const row: StoredLabel | undefined = current >= 0 ? shown[current] : undefined;
  const id = (i: number) => `label-row-${i}`;
  const setActive = useCallback((i: number) => setChosen(listing.keys[i]), [listing]);

  useEffect(() => {
    if (row) scrollActiveIntoView(list.current, id(current));
  }, [row, current]);

  const moveKeys = useListKeys(shown.length, current, setActive);
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.key === 'z') {
      // Undo here as in the queue: the last label change, wherever it was made.
      e.preventDefault();
      e.stopPropagation();
      void undo();
      return;
    }
    const v = LABEL_KEYS[e.key];
    if (v || e.key === 'Delete' || e.key === 'Backspace') {
      // The queue's own d / n / u (a window listener) must not label its pair too.
      e.preventDefault();
      e.stopPropagation();
      if (!row) return;
      void (v ? relabel(row.a, row.b, v) : remove(row.a, row.b));
      return;
    }
    moveKeys(e);
  };

  return (
    <div className="labels-list">
      <div className="labels-filter">
        <h3>All labels</h3>
        <Choice<LabelValue | ''>
          label="Show labels"
          value={value}
          options={LABEL_VALUES}
          text={(v) => LABEL_NAMES[v]}
          all="all"
          onChange={setValue}
        />
        <SearchBox
          label="Filter labels by URL"
          placeholder="text in either URL"
          value={text}
          onChange={setText}
        />
        <span className="meta" data-testid="labels-count">
          {rows.length === labels.size
            ? plural(labels.size, 'label')
            : `${fmtInt(rows.length)} of ${plural(labels.size, 'label')}`}
          {rows.length > SHOWN ? ` (first ${SHOWN} shown)` : ''}
        </span>
      </div>
      {shown.length === 0 ? (
        <p className="empty">{labels.size ? 'No label matches the filter.' : 'No labels yet.'}</p>
      ) : (
        <>
          <ul
            ref={list}
            role="listbox"
            tabIndex={0}
            aria-label="Labels"
            aria-activedescendant={row ? id(current) : undefined}
            onKeyDown={onKeyDown}
          >
            {shown.map((r, i) => (
              <li
                key={listing.keys[i]}
                id={id(i)}
                role="option"
                aria-selected={i === current}
                className={i === current ? 'active' : undefined}
                onClick={() => setActive(i)}
              >
                <Url url={urlOf(r.a)} shown={pairShown(urlOf(r.a), urlOf(r.b))[0]} />
                <Url url={urlOf(r.b)} shown={pairShown(urlOf(r.a), urlOf(r.b))[1]} />
                <span className={`label-value ${r.label}`}>{LABEL_NAMES[r.label]}</span>
                <span className="meta" title={r.origin ? 'outside the sampling design' : undefined}>
                  {r.origin
                    ? `imported: ${r.origin}`
                    : `${r.strategy}${Number.isFinite(r.pi) ? `, π = ${r.pi.toPrecision(2)}` : ''}`}
                </span>
                <time className="meta" dateTime={r.at}>
                  {fmtWhen(r.at)}
                </time>
              </li>
            ))}
          </ul>
          <p className="label-keys">
            Selected row:{' '}
            {(Object.entries(LABEL_KEYS) as [string, LabelValue][]).map(([k, v]) => (
              <button
                key={k}
                type="button"
                disabled={!row || row.label === v}
                onClick={() => row && void relabel(row.a, row.b, v)}
              >
                <kbd>{k}</kbd> {LABEL_NAMES[v]}
              </button>
            ))}
            <button type="button" disabled={!row} onClick={() => row && void remove(row.a, row.b)}>
              <kbd>Delete</kbd> delete label
            </button>
            <button type="button" disabled={!canUndo} onClick={() => void undo()}>
              <kbd>z</kbd> undo
            </button>
          </p>
        </>
      )}
    </div>
  );
}

function fmtWhen(at: string): string {
  const d = new Date(at);
  if (!at || Number.isNaN(d.getTime())) return '–';
  return d.toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });
}

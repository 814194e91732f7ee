import { useCallback, useMemo } from 'react';
import { flushSync } from 'react-dom';
import { statusClass, usePages, visiblePages, type SortKey } from '../state/pages';
import { keyedListing } from '../state/selection';
import { Choice, SearchBox } from './Controls';
import { escapeBidi, fmtInt, fmtSize, plural } from './format';
import { useDust } from '../state/dust';
import { revealDetail } from './focus';
import { Url } from './Url';
import { charsThatFit, useElementWidth } from './useElementWidth';
import { useFollowSelection } from './useListKeys';
import { VirtualList } from './VirtualList';

const ROW = 26;
const COLUMNS: { key: SortKey; label: string; cls: string }[] = [
  { key: 'seq', label: '#', cls: 'c-seq' },
  { key: 'status', label: 'Status', cls: 'c-status' },
  { key: 'url', label: 'URL', cls: 'c-url' },
  { key: 'title', label: 'Title', cls: 'c-title' },
  { key: 'canonical', label: 'Canonical (DUST)', cls: 'c-canon' },
  { key: 'mime', label: 'MIME', cls: 'c-mime' },
  { key: 'size', label: 'Size', cls: 'c-size' },
];

/**
 * Pages of the selected dataset: filter by URL/title, host, status, MIME; sort by any column; virtualised
 * (VirtualList: only the rows in view are in the DOM).
 * The rows are one keyboard stop (↑/↓, PageUp/PageDown, Home/End select a page; Enter moves to its detail).
 */
export function PagesTable() {
  const pages = usePages((s) => s.pages);
  const rankOf = usePages((s) => s.rankOf);
  const loading = usePages((s) => s.loading);
  const filter = usePages((s) => s.filter);
  const sort = usePages((s) => s.sort);
  const setFilter = usePages((s) => s.setFilter);
  const setSort = usePages((s) => s.setSort);
  const selectedSeq = usePages((s) => s.selectedSeq);
  const selectPage = usePages((s) => s.selectPage);
  const canonical = useDust((s) => s.canonical);
  const rows = useMemo(() => visiblePages(pages, filter, sort, canonical), [pages, filter, sort, canonical]);
  const hosts = useMemo(() => [...new Set(pages.map((p) => p.host))].filter(Boolean).sort(), [pages]);
  const mimes = useMemo(() => [...new Set(pages.map((p) => p.mime))].filter(Boolean).sort(), [pages]);
  const statuses = useMemo(() => [...new Set(pages.map((p) => statusClass(p.status)))].sort(), [pages]);
  // URL cells are shortened in the middle to what their column holds (host and path end stay).
  const [urlHead, urlWidth, urlEl] = useElementWidth<HTMLButtonElement>();
  const [canonHead, canonWidth] = useElementWidth<HTMLButtonElement>();
  const urlMax = urlWidth > 0 ? charsThatFit(urlEl, urlWidth - 12) : 64;
  const canonMax = canonWidth > 0 ? charsThatFit(urlEl, canonWidth - 12) : 48;
  // The selection is a page (its seq), so a re-sort keeps it; a filter that drops it passes it to the page
  // after it in the rows as they were, or to none (src/state/selection.ts). VirtualList keeps its row in view.
  const listing = useMemo(() => keyedListing(rows.map((r) => r.seq)), [rows]);
  const active = selectedSeq === null ? -1 : listing.rowOf(selectedSeq);
  const follow = useCallback((seq: number | null) => void selectPage(seq), [selectPage]);
  useFollowSelection(listing, selectedSeq, follow);
  const moveTo = useCallback((next: number) => void selectPage(rows[next].seq), [rows, selectPage]);
  // The detail under the table shows the selected page already; Enter takes the keyboard there, a click
  // brings it into view and leaves the keyboard on the rows (flushSync: the page is drawn before scrolling).
  const openDetail = useCallback(() => revealDetail('page-detail', true), []);
  const clickRow = useCallback(
    (seq: number) => {
      flushSync(() => void selectPage(seq));
      revealDetail('page-detail', false);
    },
    [selectPage],
  );

  // Before DUST has canonised any URL, its column is left out and the URL takes its width.
  const withCanon = canonical.size > 0;
  return (
    <div className={`pages-table${withCanon ? '' : ' no-canon'}`}>
      <div className="filters">
        <SearchBox label="Filter by URL or title" value={filter.url} onChange={(url) => setFilter({ url })} />
        <Choice
          label="Host"
          value={filter.host}
          options={hosts}
          all={`All hosts (${hosts.length})`}
          onChange={(host) => setFilter({ host })}
        />
        <Choice
          label="Status"
          value={filter.status}
          options={statuses}
          text={(s) => (s === 'none' ? 'no status' : s)}
          all="All statuses"
          onChange={(status) => setFilter({ status })}
        />
        <Choice
          label="MIME type"
          value={filter.mime}
          options={mimes}
          all="All types"
          onChange={(mime) => setFilter({ mime })}
        />
        <span className="count" data-testid="page-count">
          {loading ? 'loading…' : `${fmtInt(rows.length)} of ${plural(pages.length, 'page')}`}
        </span>
      </div>
      <div className="thead" role="group" aria-label="Sort pages by">
        {COLUMNS.filter((c) => withCanon || c.key !== 'canonical').map((c) => (
          <button
            type="button"
            key={c.key}
            ref={c.key === 'url' ? urlHead : c.key === 'canonical' ? canonHead : undefined}
            className={`th ${c.cls}`}
            onClick={() => setSort(c.key)}
            aria-pressed={sort.key === c.key}
            title={`Sort by ${c.label}${sort.key === c.key ? (sort.dir === 1 ? ' (ascending)' : ' (descending)') : ''}`}
          >
            {c.label}
            {sort.key === c.key ? (sort.dir === 1 ? ' ▲' : ' ▼') : ''}
          </button>
        ))}
      </div>
      <VirtualList
        className="tbody"
        role="grid"
        aria-label="Pages"
        count={rows.length}
        rowHeight={ROW}
        overscan={10}
        active={active}
        onActive={moveTo}
        onOpen={openDetail}
        rowId={(i) => `page-row-${rows[i].seq}`}
        empty={
          loading ? null : (
            <p className="empty">
              {pages.length === 0 ? 'This dataset has no pages.' : 'No page matches the filters.'}
            </p>
          )
        }
        renderRow={(i, style) => {
          const p = rows[i];
          return (
            <div
              key={p.seq}
              id={`page-row-${p.seq}`}
              role="row"
              aria-rowindex={i + 1}
              aria-selected={p.seq === selectedSeq}
              className={`tr${p.seq === selectedSeq ? ' selected' : ''}`}
              style={style}
              onClick={() => clickRow(p.seq)}
            >
              <span role="gridcell" className="td c-seq">
                {rankOf.get(p.seq)}
              </span>
              <span role="gridcell" className={`td c-status s${statusClass(p.status)}`}>
                {p.statuses.length > 1 ? p.statuses.join(',') : p.status || '–'}
              </span>
              <span role="gridcell" className="td c-url">
                <Url url={p.url} max={urlMax} />
              </span>
              <span role="gridcell" className="td c-title" title={escapeBidi(p.title)}>
                {p.recordType === 'revisit' ? `↺ ${escapeBidi(p.title)}` : escapeBidi(p.title)}
              </span>
              {withCanon && (
                <span role="gridcell" className="td c-canon">
                  {canonical.has(p.normUrl) && <Url url={canonical.get(p.normUrl)} max={canonMax} />}
                </span>
              )}
              <span role="gridcell" className="td c-mime">
                {p.mime}
              </span>
              <span role="gridcell" className="td c-size">
                {fmtSize(p.sizeMin, p.sizeMax)}
              </span>
            </div>
          );
        }}
      />
    </div>
  );
}

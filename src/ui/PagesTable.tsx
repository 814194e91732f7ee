import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { statusClass, usePages, visiblePages, type SortKey } from '../state/pages';
import { fmtInt, fmtSize } from './format';
import { useDust } from '../state/dust';

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

/** Pages of the selected dataset: filter by URL/title, host, status, MIME; sort by any column; virtualised. */
export function PagesTable() {
  const { pages, rankOf, loading, filter, sort, setFilter, setSort, selectedSeq, selectPage } = usePages();
  const canonical = useDust((s) => s.canonical);
  const rows = useMemo(() => visiblePages(pages, filter, sort, canonical), [pages, filter, sort, canonical]);
  const hosts = useMemo(() => [...new Set(pages.map((p) => p.host))].filter(Boolean).sort(), [pages]);
  const mimes = useMemo(() => [...new Set(pages.map((p) => p.mime))].filter(Boolean).sort(), [pages]);
  const statuses = useMemo(() => [...new Set(pages.map((p) => statusClass(p.status)))].sort(), [pages]);
  const [scrollTop, setScrollTop] = useState(0);
  const [height, setHeight] = useState(400);
  const body = useRef<HTMLDivElement>(null);

  const first = Math.max(0, Math.floor(scrollTop / ROW) - 10);
  const last = Math.min(rows.length, Math.ceil((scrollTop + height) / ROW) + 10);

  const move = (e: KeyboardEvent) => {
    if (rows.length === 0 || (e.key !== 'ArrowDown' && e.key !== 'ArrowUp')) return;
    e.preventDefault();
    const i = rows.findIndex((r) => r.seq === selectedSeq);
    const next = e.key === 'ArrowDown' ? Math.min(rows.length - 1, i + 1) : Math.max(0, i - 1);
    void selectPage(rows[next].seq);
    const el = body.current;
    if (el) {
      const top = next * ROW;
      if (top < el.scrollTop) el.scrollTop = top;
      else if (top + ROW > el.scrollTop + el.clientHeight) el.scrollTop = top + ROW - el.clientHeight;
    }
  };

  return (
    <div className="pages-table">
      <div className="filters">
        <input
          type="search"
          placeholder="Filter by URL or title"
          aria-label="Filter by URL or title"
          value={filter.url}
          onChange={(e) => setFilter({ url: e.target.value })}
        />
        <select aria-label="Host" value={filter.host} onChange={(e) => setFilter({ host: e.target.value })}>
          <option value="">All hosts ({hosts.length})</option>
          {hosts.map((h) => (
            <option key={h}>{h}</option>
          ))}
        </select>
        <select
          aria-label="Status"
          value={filter.status}
          onChange={(e) => setFilter({ status: e.target.value })}
        >
          <option value="">All statuses</option>
          {statuses.map((s) => (
            <option key={s} value={s}>
              {s === 'none' ? 'no status' : s}
            </option>
          ))}
        </select>
        <select
          aria-label="MIME type"
          value={filter.mime}
          onChange={(e) => setFilter({ mime: e.target.value })}
        >
          <option value="">All types</option>
          {mimes.map((m) => (
            <option key={m}>{m}</option>
          ))}
        </select>
        <span className="count" data-testid="page-count">
          {loading ? 'loading…' : `${fmtInt(rows.length)} of ${fmtInt(pages.length)} pages`}
        </span>
      </div>
      <div className="thead" role="row">
        {COLUMNS.map((c) => (
          <button
            type="button"
            key={c.key}
            className={`th ${c.cls}`}
            onClick={() => setSort(c.key)}
            aria-sort={sort.key === c.key ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}
          >
            {c.label}
            {sort.key === c.key ? (sort.dir === 1 ? ' ▲' : ' ▼') : ''}
          </button>
        ))}
      </div>
      <div
        className="tbody"
        ref={(el) => {
          body.current = el;
          if (el && el.clientHeight && el.clientHeight !== height) setHeight(el.clientHeight);
        }}
        role="grid"
        aria-label="Pages"
        aria-rowcount={rows.length}
        tabIndex={0}
        onKeyDown={move}
        onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
      >
        {rows.length === 0 && !loading ? (
          <p className="empty">
            {pages.length === 0 ? 'This dataset has no pages.' : 'No page matches the filters.'}
          </p>
        ) : (
          <div style={{ height: rows.length * ROW, position: 'relative' }}>
            {rows.slice(first, last).map((p, i) => (
              <div
                key={p.seq}
                role="row"
                aria-selected={p.seq === selectedSeq}
                className={`tr${p.seq === selectedSeq ? ' selected' : ''}`}
                style={{ top: (first + i) * ROW, height: ROW }}
                onClick={() => void selectPage(p.seq)}
              >
                <span className="td c-seq">{rankOf.get(p.seq)}</span>
                <span className={`td c-status s${statusClass(p.status)}`}>
                  {p.statuses.length > 1 ? p.statuses.join(',') : p.status || '–'}
                </span>
                <span className="td c-url" title={p.url}>
                  {p.url}
                </span>
                <span className="td c-title" title={p.title}>
                  {p.recordType === 'revisit' ? `↺ ${p.title}` : p.title}
                </span>
                <span className="td c-canon" title={canonical.get(p.normUrl)}>
                  {canonical.get(p.normUrl) ?? ''}
                </span>
                <span className="td c-mime">{p.mime}</span>
                <span className="td c-size">{fmtSize(p.sizeMin, p.sizeMax)}</span>
              </div>
            ))}
          </div>
        )}
      </div>
    </div>
  );
}

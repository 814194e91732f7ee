import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import { usePages } from '../state/pages';
import { pageBySeq, pageOfUrl, selectedDataset } from '../state/selectors';
import { escapeBidi, fmtInt, fmtSize, plural } from './format';
import { useDust } from '../state/dust';
import { useDatasets } from '../state/datasets';
import { samplePi, type SampleInfo } from '../core/sample/sample-plan';
import { useLabels } from '../state/labels';
import { PageText } from './PageText';
import { SourceOf } from './PageSource';
import { Url } from './Url';
import { charsThatFit, useElementWidth } from './useElementWidth';
import { VirtualList } from './VirtualList';

/** Titles and header values are crawled strings of any length: the view shows at most this much of one. */
const CLIP = 2_000;
const ROW = 22;
const LIST_HEIGHT = 264; // 12 rows

/** A crawled string as shown: clipped, its bidirectional controls written out (escapeBidi). */
const clip = (s: string, n = CLIP) =>
  s.length > n ? `${escapeBidi(s.slice(0, n))}… (${plural(s.length, 'character')})` : escapeBidi(s);

/** One page: metadata, headers, visible text and outlinks — always as text, never as markup. */
export function PageDetail() {
  const p = usePages((s) => (s.selectedSeq === null ? undefined : pageBySeq(s.pages).get(s.selectedSeq)));
  const rankOf = usePages((s) => s.rankOf);
  const content = usePages((s) => s.content);
  const revisited = usePages((s) => s.revisited);
  const template = usePages((s) => s.template);
  const canonical = useDust((s) => s.canonical);
  // URLs here get up to three lines of the detail's width before the middle gives way (Url).
  const [box, width, boxEl] = useElementWidth<HTMLElement>();
  const line = width > 0 ? charsThatFit(boxEl, width - 110) : 60;
  const max = 3 * line;
  const sample = useDatasets((s) => selectedDataset(s)?.sample);
  const references = useLabels((s) => s.references);
  const toggleReference = useLabels((s) => s.toggleReference);
  if (!p) {
    return (
      <aside className="page-detail" aria-label="Page detail" id="page-detail" tabIndex={-1} ref={box}>
        <p className="empty">
          Select a page to see its headers, text and outlinks (↑/↓ move through the table, Enter comes here).
        </p>
      </aside>
    );
  }
  const text = content?.text || revisited?.text || '';
  const links = content && content.outlinks.length > 0 ? content : revisited;
  return (
    <aside className="page-detail" aria-label="Page detail" id="page-detail" tabIndex={-1} ref={box}>
      <h2 data-testid="detail-title">{clip(p.title) || '(no title)'}</h2>
      <label className="check">
        <input type="checkbox" checked={references.has(p.seq)} onChange={() => void toggleReference(p.seq)} />{' '}
        reference page (known to have a replica: counts in page-level recall)
      </label>
      <dl className="facts">
        <dt>URL</dt>
        <dd>
          <Url url={p.url} max={max} />
        </dd>
        {p.normUrl !== p.url && (
          <>
            <dt>Normalised</dt>
            <dd>
              <Url url={p.normUrl} max={max} />
            </dd>
          </>
        )}
        {canonical.get(p.normUrl) && (
          <>
            <dt>Canonical</dt>
            <dd>
              <Url url={canonical.get(p.normUrl)} max={max} />
            </dd>
          </>
        )}
        <dt>Status</dt>
        <dd>{p.statuses.join(', ') || '–'}</dd>
        <dt>Type</dt>
        <dd>
          {p.mime || '–'} {p.charset && `(${p.charset})`} · {p.recordType}
        </dd>
        <dt>Size</dt>
        <dd>
          {fmtSize(p.sizeMin, p.sizeMax)}
          {p.hits > 1 ? ` · ${plural(p.hits, 'hit')}` : ''}
        </dd>
        {p.fetchedAt && (
          <>
            <dt>Fetched</dt>
            <dd>{p.fetchedAt}</dd>
          </>
        )}
        <dt>Source</dt>
        <dd>
          <SourceOf page={p} />
        </dd>
        <dt>Fingerprint</dt>
        <dd className="mono">{p.fingerprint || '–'}</dd>
        <dt>Digest</dt>
        <dd className="mono">{p.digest || '–'}</dd>
        {sample && p.sampleUnit !== undefined && p.sampleUnit >= 0 && (
          <>
            <dt>Sample weight</dt>
            <dd data-testid="sample-weight">{sampleWeight(sample, p.sampleUnit)}</dd>
          </>
        )}
        {p.revisitOf >= 0 && (
          <>
            <dt>Revisit of</dt>
            <dd>page #{rankOf.get(p.revisitOf)} (text below is the original’s)</dd>
          </>
        )}
        {p.note && (
          <>
            <dt>Note</dt>
            <dd>{clip(p.note)}</dd>
          </>
        )}
      </dl>
      {/* Keyed by page: a new page starts with its text capped and its lists at the top. */}
      <Headers key={`h${p.seq}`} headers={content?.headers ?? []} />
      <PageText
        key={`t${p.seq}`}
        text={text}
        templateSpans={template?.seq === p.seq ? template.spans : null}
      />
      <Outlinks
        key={`o${p.seq}`}
        outlinks={links?.outlinks ?? []}
        rawOutlinks={links?.rawOutlinks ?? []}
        max={line}
      />
    </aside>
  );
}

/** HTTP (or WARC) headers, one per row: a hostile response can send thousands, so this list is virtual too. */
function Headers({ headers }: { headers: [string, string][] }) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  return (
    <details onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>Headers ({fmtInt(headers.length)})</summary>
      {open && (
        <VirtualList
          className="vlist headers"
          role="listbox"
          aria-label="Headers"
          count={headers.length}
          rowHeight={ROW}
          maxHeight={LIST_HEIGHT}
          active={active}
          onActive={setActive}
          rowId={(i) => `header-${i}`}
          empty={<p className="empty">No headers.</p>}
          renderRow={(i, style) => {
            const [k, v] = headers[i];
            const full = `${k}: ${v}`;
            return (
              <div
                key={i}
                id={`header-${i}`}
                role="option"
                aria-selected={i === active}
                className={`vrow${i === active ? ' active' : ''}`}
                style={style}
                title={clip(full)}
              >
                {clip(full, 400)}
              </div>
            );
          }}
        />
      )}
    </details>
  );
}

/**
 * Indices of the outlinks containing `q` (already lower-cased). Only built while a filter is typed: with
 * none the list reads the outlinks array directly, so 200,000 links are never copied.
 */
function matching(outlinks: readonly string[], q: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < outlinks.length; i++) if (outlinks[i].toLowerCase().includes(q)) out.push(i);
  return out;
}

/**
 * The page's outlinks (resolved and normalised at ingest), virtual: one keyboard stop, ↑/↓ move, Enter
 * opens the linked page when the crawl holds it. A filter narrows them by URL.
 */
function Outlinks({
  outlinks,
  rawOutlinks,
  max,
}: {
  outlinks: readonly string[];
  rawOutlinks: readonly string[];
  max: number;
}) {
  const [query, setQuery] = useState('');
  // Filtering 200,000 URLs takes tens of milliseconds: typing stays responsive and the list follows.
  const q = useDeferredValue(query.trim().toLowerCase());
  const hits = useMemo(() => (q ? matching(outlinks, q) : null), [outlinks, q]);
  const count = hits ? hits.length : outlinks.length;
  const [active, setActive] = useState(-1);
  const pages = usePages((s) => s.pages);
  const selectPage = usePages((s) => s.selectPage);
  const crawled = pageOfUrl(pages);
  const at = useCallback((i: number) => (hits ? hits[i] : i), [hits]);
  const open = useCallback(
    (i: number) => {
      const seq = crawled.get(outlinks[at(i)]);
      if (seq !== undefined) void selectPage(seq);
    },
    [crawled, outlinks, at, selectPage],
  );
  return (
    <>
      <h3 data-testid="outlink-count">
        {hits
          ? `${fmtInt(count)} of ${plural(outlinks.length, 'outlink')}`
          : plural(outlinks.length, 'outlink')}
      </h3>
      {outlinks.length > 0 && (
        <input
          type="search"
          className="outlink-filter"
          placeholder="Filter outlinks"
          aria-label="Filter outlinks"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(-1);
          }}
        />
      )}
      {outlinks.length > 0 && (
        <VirtualList
          className="vlist outlinks"
          role="listbox"
          aria-label="Outlinks"
          data-testid="outlinks"
          count={count}
          rowHeight={ROW}
          maxHeight={LIST_HEIGHT}
          active={active}
          onActive={setActive}
          onOpen={open}
          rowId={(i) => `outlink-${i}`}
          empty={<p className="empty">No outlink matches the filter.</p>}
          renderRow={(i, style) => {
            const k = at(i);
            const l = outlinks[k];
            const inCrawl = crawled.has(l);
            return (
              <div
                key={k}
                id={`outlink-${i}`}
                role="option"
                aria-selected={i === active}
                className={`vrow${i === active ? ' active' : ''}${inCrawl ? ' in-crawl' : ''}`}
                style={style}
                title={rawOutlinks[k] !== l ? `written as ${clip(rawOutlinks[k] ?? '')}` : undefined}
                onClick={() => setActive(i)}
                onDoubleClick={() => open(i)}
              >
                <span className="n">{fmtInt(k + 1)}</span>
                <Url url={l} max={max} />
                {inCrawl && <span className="badge">in crawl</span>}
              </div>
            );
          }}
        />
      )}
    </>
  );
}

/** A sampled page's weight (1/π: the pages of the crawl it stands for) and the unit it was drawn in. */
function sampleWeight(sample: SampleInfo, unit: number): string {
  const pi = samplePi(sample, unit);
  const sites = sample.unitSites[unit] ?? [];
  const named = sites.slice(0, 3).join(', ') + (sites.length > 3 ? ` and ${sites.length - 3} more` : '');
  return `${(1 / pi).toFixed(pi === 1 ? 0 : 2)} (π = ${pi.toPrecision(3)}; unit ${unit}: ${escapeBidi(named)}${
    pi === 1 ? ', taken whole' : ', drawn at random'
  })`;
}

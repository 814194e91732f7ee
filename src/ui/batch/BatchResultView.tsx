import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import {
  batchPrecision,
  GIANT_SIZE,
  HISTOGRAM_CAP,
  type BatchResultView as View,
} from '../../core/batch/result';
import { queuePairs, useBatch, type BatchQueue } from '../../state/batch';
import { drawHistogram } from '../charts/histogram';
import { fmtInt, plural } from '../format';
import { LABEL_KEYS } from '../labels/LabelsList';
import { FileButton } from '../FileButton';
import { Url } from '../Url';
import { pairShown } from '../../core/url/distinguish';
import { useListKeys } from '../useListKeys';

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/**
 * A result folder of `npm run batch` (a whole crawl, joined on DuckDB or Spark): its summary, the
 * cluster-size histogram, a random sample of clusters, and a random sample of pairs to label, whose
 * labels estimate the precision at scale.
 */
export function BatchResultView() {
  const open = useBatch((s) => s.open);
  const reading = useBatch((s) => s.reading);
  const error = useBatch((s) => s.error);
  const view = useBatch((s) => s.view);
  const files = useBatch((s) => s.files);
  const close = useBatch((s) => s.close);
  // Opened (or another result opened) while the main area was scrolled down: it is drawn at the top of
  // the main area, so the main area goes there too.
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    if (!open) return;
    const main = section.current?.closest('main');
    if (main) main.scrollTop = 0;
  }, [open, files]);
  if (!open) return null;
  return (
    // flexShrink 0: the main area is a scrolling flex column; the view keeps its height and scrolls with it.
    <section ref={section} className="pane batch-result" aria-label="Batch result" style={{ flexShrink: 0 }}>
      <div className="pane-head">
        <h2>Batch result</h2>
        {files.length > 0 && <span className="meta">{files.join(', ')}</span>}
        <button type="button" onClick={close}>
          Close
        </button>
      </div>
      {reading && <p className="meta">Reading the result's Parquet files…</p>}
      {error && (
        <p className="dataset-error" role="alert">
          {error}
        </p>
      )}
      {view && (
        <>
          <Summary view={view} />
          <Largest view={view} />
          <Histogram view={view} />
          <SampledClusters view={view} />
          <PairLabels view={view} />
        </>
      )}
    </section>
  );
}

function Summary({ view }: { view: View }) {
  const all = view.summary.find((r) => r.host === null);
  const hosts = view.summary.filter((r) => r.host !== null).slice(0, 10);
  return (
    <div data-testid="batch-summary">
      {all ? (
        <p>
          {plural(all.pages, 'page')}, {plural(all.clusters, 'cluster')},{' '}
          {plural(all.duplicatesRemoved, 'duplicate')} removed (
          {pct(all.pages ? all.duplicatesRemoved / all.pages : 0)}); {plural(view.pairs, 'verified pair')}
          {view.strongestRejected !== null && (
            <>, {plural(view.rejected, 'candidate pair')} verified and rejected</>
          )}
          .{' '}
          {all.capturesFolded > 0 && (
            <>
              {plural(all.capturesFolded, 'more capture')} of a URL folded into its earliest (in no
              cluster).{' '}
            </>
          )}
          <span data-testid="batch-loses-text">
            {all.losesText === 0
              ? 'No removed copy would lose text.'
              : `${plural(all.losesText, 'copy', 'copies')} would lose text the kept copy lacks (flagged loses_text).`}
          </span>
        </p>
      ) : (
        <p className="meta">No summary.parquet among the files: totals are not shown.</p>
      )}
      {hosts.length > 0 && (
        <table style={{ fontSize: 12, borderCollapse: 'collapse' }}>
          <caption className="meta">Hosts with the most duplicates removed</caption>
          <thead>
            <tr>
              <th>host</th>
              <th>pages</th>
              <th>clusters</th>
              <th>removed</th>
            </tr>
          </thead>
          <tbody>
            {hosts.map((h) => (
              <tr key={h.host}>
                <td>{h.host}</td>
                <td>{fmtInt(h.pages)}</td>
                <td>{fmtInt(h.clusters)}</td>
                <td>{fmtInt(h.duplicatesRemoved)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

function Histogram({ view }: { view: View }) {
  const svg = useRef<SVGSVGElement>(null);
  useEffect(() => {
    if (svg.current)
      drawHistogram(svg.current, view.histogram, {
        width: 420,
        height: 120,
        xLabel: `cluster size (pages; ${HISTOGRAM_CAP} = ${HISTOGRAM_CAP} or more)`,
      });
  }, [view]);
  return (
    <figure>
      <svg ref={svg} className="histogram" role="img" aria-label="Batch cluster size histogram" />
      <figcaption className="meta">{plural(view.clusters, 'cluster')} by size</figcaption>
    </figure>
  );
}

function SampledClusters({ view }: { view: View }) {
  const [active, setActive] = useState(0);
  const clusters = view.sampledClusters;
  const onKeyDown = useListKeys(clusters.length, active, setActive);
  const current = clusters[active];
  const crawl = useBatch((s) => s.crawl);
  const openCrawl = useBatch((s) => s.openCrawl);
  const readTexts = useBatch((s) => s.readTexts);
  const texts = useBatch((s) => (current ? s.texts[current.cluster] : undefined));
  const readingTexts = useBatch((s) => s.readingTexts);
  const textsError = useBatch((s) => s.textsError);
  // With the crawl's files open, the active cluster's members are read (once) as it is shown.
  useEffect(() => {
    if (current && crawl.length > 0) void readTexts(current);
  }, [current, crawl, readTexts]);
  return (
    <div>
      <h3>
        {plural(clusters.length, 'cluster')} drawn at random of {fmtInt(view.clusters)}
      </h3>
      <p className="meta">
        <FileButton onFiles={openCrawl} multiple testId="batch-crawl-input" label="The crawl's files">
          {crawl.length ? 'Other crawl files…' : 'Open the crawl’s files to read members’ texts…'}
        </FileButton>{' '}
        {crawl.length > 0
          ? `${plural(crawl.length, 'crawl file')} open: each member's record is read by byte range (its shard and offset in clusters.parquet).`
          : 'The result holds URLs; the texts are in the crawl’s WARC files.'}
        {readingTexts && ' Reading…'}
        {textsError && (
          <span className="error" role="alert">
            {' '}
            {textsError}
          </span>
        )}
      </p>
      <div style={{ display: 'flex', gap: 12 }}>
        <ul
          className="cluster-list"
          role="listbox"
          aria-label="Sampled clusters"
          tabIndex={0}
          aria-activedescendant={clusters.length ? `batch-cluster-${active}` : undefined}
          onKeyDown={onKeyDown}
          data-testid="batch-clusters"
        >
          {clusters.map((c, i) => (
            <li key={c.cluster} id={`batch-cluster-${i}`} role="option" aria-selected={i === active}>
              <button
                type="button"
                tabIndex={-1}
                className={i === active ? 'selected' : ''}
                onClick={() => setActive(i)}
              >
                <span className="size">{c.size}</span>
                <span className="title">
                  <Url url={c.urls[0]} max={48} />
                </span>
              </button>
            </li>
          ))}
        </ul>
        {current && (
          <ol className="members" aria-label="URLs of the sampled cluster" data-testid="batch-cluster-urls">
            {/* By position: one URL can be two pages (the same URL crawled in two shards). */}
            {current.urls.map((u, i) => (
              <li key={i}>
                <Url url={u} />
                {texts && (
                  // Crawled text, rendered as text only.
                  <p className="member-text" data-testid="batch-member-text">
                    {texts[i]?.text
                      ? `${texts[i].text.slice(0, 400)}${texts[i].text.length > 400 ? '…' : ''}`
                      : 'not found in the crawl files opened (another shard?)'}
                  </p>
                )}
              </li>
            ))}
            {current.size > current.urls.length && (
              <li className="meta">… and {fmtInt(current.size - current.urls.length)} more</li>
            )}
          </ol>
        )}
      </div>
    </div>
  );
}

/** The largest clusters with their weakest links: a giant is worth a look before its copies are removed. */
function Largest({ view }: { view: View }) {
  if (view.largest.length === 0) return null;
  const giants = view.largest.filter((c) => c.size >= GIANT_SIZE);
  return (
    <div data-testid="batch-largest">
      {giants.length > 0 && (
        <p className="warning" role="note">
          {plural(giants.length, 'giant cluster')} ({GIANT_SIZE} pages or more): one weak link can chain
          unrelated pages together — check its weakest pair before removing its copies.
        </p>
      )}
      <p className="meta">
        Largest clusters:{' '}
        {view.largest
          .map(
            (c) =>
              `${c.cluster} (${fmtInt(c.size)} pages${c.weakest === null ? '' : `, weakest link ${c.weakest.toFixed(3)}`})`,
          )
          .join(' · ')}
      </p>
    </div>
  );
}

const QUEUES: { q: BatchQueue; name: string }[] = [
  { q: 'sample', name: 'Random sample (estimates precision)' },
  { q: 'weakest', name: 'Least similar accepted' },
  { q: 'rejected', name: 'Most similar rejected' },
];

function PairLabels({ view }: { view: View }) {
  const labels = useBatch((s) => s.labels);
  const cursor = useBatch((s) => s.cursor);
  const label = useBatch((s) => s.label);
  const move = useBatch((s) => s.move);
  const queue = useBatch((s) => s.queue);
  const stash = useBatch((s) => s.stash);
  const setQueue = useBatch((s) => s.setQueue);
  // The precision estimate reads the random sample's labels only, whichever queue is shown.
  const estimate = useMemo(
    () => batchPrecision(queue === 'sample' ? labels : (stash.sample?.labels ?? []), view.pi),
    [queue, labels, stash, view.pi],
  );
  const pairs = queuePairs(view, queue);
  const pair = pairs[cursor];
  const picker = (
    <div className="queue-picker" role="radiogroup" aria-label="Pairs to label" data-testid="batch-queues">
      {QUEUES.map(({ q, name }) => (
        <label key={q}>
          <input type="radio" name="batch-queue" checked={queue === q} onChange={() => setQueue(q)} /> {name}
        </label>
      ))}
    </div>
  );
  if (!pair)
    return (
      <div>
        {picker}
        <p className="meta">
          {queue === 'rejected'
            ? view.strongestRejected === null
              ? 'No rejected.parquet among the files (a result written before the batch kept rejected pairs).'
              : 'No candidate pair was rejected.'
            : 'No pairs.parquet among the files (or no verified pair): nothing to label.'}
        </p>
      </div>
    );
  const done = labels.filter((l) => l !== undefined).length;
  const onKeyDown = (e: KeyboardEvent) => {
    const v = LABEL_KEYS[e.key];
    if (v) label(cursor, v);
    else if (e.key === 'z') label(cursor, undefined);
    else if (e.key === 'ArrowRight') move(cursor + 1);
    else if (e.key === 'ArrowLeft') move(cursor - 1);
    else return;
    e.preventDefault();
  };
  return (
    <div
      className="label-view"
      tabIndex={0}
      onKeyDown={onKeyDown}
      aria-label="Label sampled pairs"
      data-testid="batch-labels"
    >
      {picker}
      <h3>
        {queue === 'sample'
          ? `Pair ${cursor + 1} of ${pairs.length} drawn at random from ${fmtInt(view.pairs)} verified pairs`
          : queue === 'weakest'
            ? `Pair ${cursor + 1} of the ${pairs.length} least similar of ${fmtInt(view.pairs)} verified pairs`
            : `Pair ${cursor + 1} of the ${pairs.length} most similar of ${fmtInt(view.rejected)} rejected pairs`}
      </h3>
      <p className="meta">
        At scale the result holds URLs, not page text: judge by the URLs, or open both in the archive's
        replay.
      </p>
      <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 8 }}>
        <Url url={pair.urlA} shown={pairShown(pair.urlA, pair.urlB)[0]} expandable />
        <Url url={pair.urlB} shown={pairShown(pair.urlA, pair.urlB)[1]} expandable />
      </div>
      <p className="meta">
        similarity {pair.similarity.toFixed(3)}; label: {labels[cursor] ?? 'none'}
      </p>
      <div className="label-keys">
        <button type="button" onClick={() => label(cursor, 'dup')}>
          <kbd>d</kbd>/<kbd>y</kbd> duplicate
        </button>
        <button type="button" onClick={() => label(cursor, 'not')}>
          <kbd>n</kbd> not
        </button>
        <button type="button" onClick={() => label(cursor, 'unsure')}>
          <kbd>u</kbd> unsure
        </button>
        <button type="button" onClick={() => label(cursor, undefined)}>
          <kbd>z</kbd> undo
        </button>
        <button type="button" onClick={() => move(cursor - 1)} aria-label="Previous pair">
          <kbd>←</kbd>
        </button>
        <button type="button" onClick={() => move(cursor + 1)} aria-label="Next pair">
          <kbd>→</kbd>
        </button>
      </div>
      <p data-testid="batch-precision">
        {done} labelled.{' '}
        {estimate.n > 0
          ? `Precision ${pct(estimate.value)} (95% Wilson interval ${pct(estimate.lo)}–${pct(estimate.hi)}, n = ${estimate.n.toFixed(0)}), each pair standing for ${fmtInt(Math.round(1 / view.pi))} of the result's pairs.`
          : 'Label pairs to estimate the precision of the whole result.'}
      </p>
    </div>
  );
}

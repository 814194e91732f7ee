import { usePages } from '../state/pages';
import { fmtInt, fmtSize } from './format';
import { useDust } from '../state/dust';
import { useLabels } from '../state/labels';
import { Url } from './Url';
import { charsThatFit, useElementWidth } from './useElementWidth';

/** One page: metadata, headers, visible text and outlinks — always as text, never as markup. */
export function PageDetail() {
  const p = usePages((s) =>
    s.selectedSeq === null ? undefined : s.pages.find((x) => x.seq === s.selectedSeq),
  );
  const rankOf = usePages((s) => s.rankOf);
  const content = usePages((s) => s.content);
  const revisited = usePages((s) => s.revisited);
  const canonical = useDust((s) => s.canonical);
  // URLs here get up to three lines of the detail's width before the middle gives way (Url).
  const [box, width, boxEl] = useElementWidth<HTMLElement>();
  const line = width > 0 ? charsThatFit(boxEl, width - 110) : 60;
  const max = 3 * line;
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
      <h2 data-testid="detail-title">{p.title || '(no title)'}</h2>
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
          {p.hits > 1 ? ` · ${fmtInt(p.hits)} hits` : ''}
        </dd>
        {p.fetchedAt && (
          <>
            <dt>Fetched</dt>
            <dd>{p.fetchedAt}</dd>
          </>
        )}
        <dt>Fingerprint</dt>
        <dd className="mono">{p.fingerprint || '–'}</dd>
        <dt>Digest</dt>
        <dd className="mono">{p.digest || '–'}</dd>
        {p.revisitOf >= 0 && (
          <>
            <dt>Revisit of</dt>
            <dd>page #{rankOf.get(p.revisitOf)} (text below is the original’s)</dd>
          </>
        )}
        {p.note && (
          <>
            <dt>Note</dt>
            <dd>{p.note}</dd>
          </>
        )}
      </dl>
      <details>
        <summary>Headers ({content?.headers.length ?? 0})</summary>
        <pre className="headers">{content?.headers.map(([k, v]) => `${k}: ${v}`).join('\n')}</pre>
      </details>
      <h3>Text ({fmtInt(text.length)} characters)</h3>
      <pre className="page-text" data-testid="page-text">
        {text || '(no text)'}
      </pre>
      <h3>Outlinks ({links?.outlinks.length ?? 0})</h3>
      <ol className="outlinks">
        {links?.outlinks.map((l, i) => (
          <li key={i} title={links.rawOutlinks[i] !== l ? `written as ${links.rawOutlinks[i]}` : undefined}>
            <Url url={l} max={line} />
          </li>
        ))}
      </ol>
    </aside>
  );
}

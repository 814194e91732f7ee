import { usePages } from '../state/pages';
import { fmtInt, fmtSize } from './format';
import { useDust } from '../state/dust';
import { useLabels } from '../state/labels';

/** One page: metadata, headers, visible text and outlinks — always as text, never as markup. */
export function PageDetail() {
  const { pages, rankOf, selectedSeq, content, revisited } = usePages();
  const canonical = useDust((s) => s.canonical);
  const references = useLabels((s) => s.references);
  const toggleReference = useLabels((s) => s.toggleReference);
  const p = selectedSeq === null ? undefined : pages.find((x) => x.seq === selectedSeq);
  if (!p) {
    return (
      <aside className="page-detail" aria-label="Page detail">
        <p className="empty">
          Select a page to see its headers, text and outlinks (↑/↓ move through the table).
        </p>
      </aside>
    );
  }
  const text = content?.text || revisited?.text || '';
  const links = content && content.outlinks.length > 0 ? content : revisited;
  return (
    <aside className="page-detail" aria-label="Page detail">
      <h2 data-testid="detail-title">{p.title || '(no title)'}</h2>
      <label className="check">
        <input type="checkbox" checked={references.has(p.seq)} onChange={() => void toggleReference(p.seq)} />{' '}
        reference page (known to have a replica: counts in page-level recall)
      </label>
      <dl className="facts">
        <dt>URL</dt>
        <dd>{p.url}</dd>
        {p.normUrl !== p.url && (
          <>
            <dt>Normalised</dt>
            <dd>{p.normUrl}</dd>
          </>
        )}
        {canonical.get(p.normUrl) && (
          <>
            <dt>Canonical</dt>
            <dd>{canonical.get(p.normUrl)}</dd>
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
            {l}
          </li>
        ))}
      </ol>
    </aside>
  );
}

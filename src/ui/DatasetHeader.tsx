import type { Dataset } from '../db/schema';
import { fmtBytes, fmtDuration, fmtInt } from './format';

export function DatasetHeader({ dataset: d }: { dataset: Dataset }) {
  const types = Object.entries(d.recordsByType)
    .map(([k, v]) => `${k} ${fmtInt(v)}`)
    .join(' · ');
  return (
    <header className="dataset-header">
      <h1>{d.name}</h1>
      <p className="meta">
        {d.format}
        {d.compressed ? ' (gzip)' : ''} · {fmtBytes(d.bytes)}
        {d.bytesDecoded > d.bytes ? ` (${fmtBytes(d.bytesDecoded)} uncompressed)` : ''} · {fmtInt(d.pages)}{' '}
        pages · {fmtInt(d.hosts)} hosts · read in {fmtDuration(d.elapsedMs)} ·{' '}
        <span className={`badge status-${d.status}`}>{d.status}</span>
      </p>
      {types && <p className="meta">Records: {types}</p>}
      {d.error && (
        <p className="dataset-error" role="alert">
          {d.error.message}
        </p>
      )}
      {d.warningCount > 0 && (
        <details className="dataset-warnings">
          <summary>
            {d.warningCount} problem{d.warningCount > 1 ? 's' : ''} read past
          </summary>
          <ul>
            {d.warnings.map((w, i) => (
              <li key={i}>{w.message}</li>
            ))}
          </ul>
        </details>
      )}
    </header>
  );
}

import { useRef } from 'react';
import { useDatasets } from '../state/datasets';
import { fmtBytes, fmtInt } from './format';
import { loadSample } from './sample';

export function Sidebar() {
  const { datasets, selectedId, select, remove, ingestFile, job } = useDatasets();
  const input = useRef<HTMLInputElement>(null);

  const openSample = async () => {
    await ingestFile(await loadSample());
  };

  return (
    <aside className="sidebar" aria-label="Datasets">
      <div className="brand">Dedup Workbench</div>
      <div className="actions">
        <button type="button" onClick={() => input.current?.click()} disabled={!!job}>
          Open file…
        </button>
        <button type="button" onClick={() => void openSample()} disabled={!!job}>
          Open sample crawl
        </button>
        <input
          ref={input}
          type="file"
          hidden
          data-testid="file-input"
          onChange={(e) => {
            const files = Array.from(e.target.files ?? []);
            e.target.value = '';
            void (async () => {
              for (const f of files) await ingestFile(f);
            })();
          }}
        />
      </div>
      <p className="hint">or drop files anywhere</p>
      <h2>Datasets</h2>
      {datasets.length === 0 ? (
        <p className="empty">None yet.</p>
      ) : (
        <ul className="dataset-list">
          {datasets.map((d) => (
            <li key={d.id} className={d.id === selectedId ? 'selected' : ''}>
              <button
                type="button"
                className="dataset"
                onClick={() => select(d.id!)}
                aria-current={d.id === selectedId}
              >
                <span className="name" title={d.fileName}>
                  {d.name}
                </span>
                <span className="meta">
                  {d.format}
                  {d.compressed ? '.gz' : ''} · {fmtBytes(d.bytes)} · {fmtInt(d.pages)} pages
                </span>
                <span className={`badge status-${d.status}`}>{d.status}</span>
              </button>
              <button
                type="button"
                className="delete"
                aria-label={`Delete ${d.name}`}
                title="Delete this dataset"
                disabled={d.status === 'ingesting'}
                onClick={() => {
                  if (confirm(`Delete ${d.name} and its ${d.pages} pages?`)) void remove(d.id!);
                }}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
      <StorageLine />
    </aside>
  );
}

/** The origin's storage in total, as the browser reports it, and whether it may be cleared under pressure. */
function StorageLine() {
  const storage = useDatasets((s) => s.storage);
  const stored = useDatasets((s) => s.datasets.reduce((a, d) => a + (d.storedBytes ?? 0), 0));
  if (!storage) return null;
  return (
    <p className="storage" data-testid="storage">
      Storage: {fmtBytes(storage.usage)} used of {fmtBytes(storage.quota)} available
      {stored > 0 ? ` (pages ≈ ${fmtBytes(stored)})` : ''} ·{' '}
      {storage.persisted ? 'persistent' : 'may be cleared by the browser when space runs low'}
    </p>
  );
}

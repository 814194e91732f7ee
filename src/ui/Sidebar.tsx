import { useEffect, useRef, useState } from 'react';
import { useDatasets } from '../state/datasets';
import { fmtBytes, fmtWhen, kindOf, plural } from './format';
import { loadSample } from './sample';
import { useListKeys } from './useListKeys';
import { OpenBatchResult } from './batch/OpenBatchResult';
import { OpenLargeCrawl } from './OpenLargeCrawl';
import { FileButton } from './FileButton';

export function Sidebar() {
  const datasets = useDatasets((s) => s.datasets);
  const selectedId = useDatasets((s) => s.selectedId);
  const select = useDatasets((s) => s.select);
  const remove = useDatasets((s) => s.remove);
  const ingestFile = useDatasets((s) => s.ingestFile);
  const ingestFiles = useDatasets((s) => s.ingestFiles);
  // Whether a job runs (not its progress, which changes ten times a second).
  const job = useDatasets((s) => s.job !== null);
  // The dataset list is one tab stop: ↑/↓ move between datasets, Enter opens one, Delete deletes it.
  const list = useRef<HTMLUListElement>(null);
  const [focused, setFocused] = useState<number | null>(null);
  const selectedIndex = datasets.findIndex((d) => d.id === selectedId);
  const active = focused !== null && focused < datasets.length ? focused : Math.max(0, selectedIndex);
  const confirmRemove = (d: (typeof datasets)[number]) => {
    if (d.status !== 'ingesting' && confirm(`Delete ${d.name} and its ${plural(d.pages, 'page')}?`))
      void remove(d.id!);
  };
  // Datasets read from files of the same name (three `crawl.warc.gz`) are told apart by when they were read.
  const shared = sharedNames(datasets);
  const listKeys = useListKeys(datasets.length, active, setFocused, (i) => select(datasets[i].id!));
  useEffect(() => {
    if (focused !== null) list.current?.querySelectorAll<HTMLElement>('.dataset')[focused]?.focus();
  }, [focused]);

  const openSample = async () => {
    await ingestFile(await loadSample());
  };

  return (
    <aside className="sidebar" aria-label="Datasets">
      <div className="brand">Dedup Workbench</div>
      <div className="actions">
        {/* Files chosen together are one crawl (one dataset): a crawl is often dozens of WARC.gz. */}
        <FileButton multiple testId="file-input" disabled={job} onFiles={(files) => void ingestFiles(files)}>
          Open file…
        </FileButton>
        <button type="button" onClick={() => void openSample()} disabled={job}>
          Open sample crawl
        </button>
        <FileButton
          folder
          testId="folder-input"
          disabled={job}
          onFiles={(chosen) => {
            // A folder's files in path order (numbered WARCs stay in crawl order); named after the folder.
            const files = chosen.sort((a, b) => (a.webkitRelativePath < b.webkitRelativePath ? -1 : 1));
            void ingestFiles(files, files[0].webkitRelativePath.split('/')[0] || undefined);
          }}
        >
          Open folder…
        </FileButton>
      </div>
      <p className="hint">or drop files or a folder anywhere: what is dropped together is one crawl</p>
      <OpenLargeCrawl />
      <OpenBatchResult />
      <h2>Datasets</h2>
      {datasets.length === 0 ? (
        <p className="empty">None yet.</p>
      ) : (
        <ul
          className="dataset-list"
          ref={list}
          onKeyDown={(e) => {
            if (e.key === 'Delete' && datasets[active]) confirmRemove(datasets[active]);
            else listKeys(e);
          }}
        >
          {datasets.map((d, i) => (
            <li key={d.id} className={d.id === selectedId ? 'selected' : ''}>
              <button
                type="button"
                className="dataset"
                tabIndex={i === active ? 0 : -1}
                onClick={() => select(d.id!)}
                aria-current={d.id === selectedId}
              >
                <span className="name" title={d.fileName}>
                  {d.name}
                </span>
                <span className="meta">
                  {kindOf(d)} · {fmtBytes(d.bytes)} · {plural(d.pages, 'page')}
                </span>
                {shared.has(d.name) && (
                  <span className="when" data-testid="dataset-when">
                    read {fmtWhen(d.created)}
                  </span>
                )}
                <span className={`badge status-${d.status}`}>{d.status}</span>
              </button>
              <button
                type="button"
                className="delete"
                aria-label={`Delete ${d.name}`}
                title="Delete this dataset (Delete key in the list)"
                tabIndex={-1}
                disabled={d.status === 'ingesting'}
                onClick={() => confirmRemove(d)}
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

/** The names more than one dataset bears. */
function sharedNames(datasets: readonly { name: string }[]): Set<string> {
  const seen = new Set<string>();
  const shared = new Set<string>();
  for (const d of datasets) (seen.has(d.name) ? shared : seen).add(d.name);
  return shared;
}

/** The origin's storage in total, as the browser reports it, and whether it may be cleared under pressure. */
function StorageLine() {
  const storage = useDatasets((s) => s.storage);
  const stored = useDatasets((s) => s.datasets.reduce((a, d) => a + (d.storedBytes ?? 0), 0));
  if (!storage) return null;
  return (
    <p className="storage" data-testid="storage">
      Storage: {fmtBytes(storage.usage)} used of {fmtBytes(storage.quota)} available
      {/* The datasets' page data as serialised, before IndexedDB compresses it (Snappy): often more than the usage. */}
      {stored > 0 ? ` (page data ≈ ${fmtBytes(stored)} before the browser compresses it)` : ''} ·{' '}
      {storage.persisted ? 'persistent' : 'may be cleared by the browser when space runs low'}
    </p>
  );
}

import { useDatasets } from '../state/datasets';
import { ParquetColumns } from './ParquetColumns';

export function Notices() {
  const all = useDatasets((s) => s.notices);
  const selectedId = useDatasets((s) => s.selectedId);
  // A dataset's notices are shown with that dataset only (state/ingest-notices.ts Notice.datasetId).
  const notices = all
    .map((n, i) => ({ n, i }))
    .filter(({ n }) => n.datasetId === undefined || n.datasetId === selectedId);
  const dismiss = useDatasets((s) => s.dismiss);
  const ingestFiles = useDatasets((s) => s.ingestFiles);
  if (notices.length === 0) return null;
  return (
    <div className="notices">
      {notices.map(({ n, i }) => (
        <div key={i} className={`notice notice-${n.kind}`} role={n.kind === 'error' ? 'alert' : 'status'}>
          <span className="notice-text">{n.text}</span>
          {n.chooseColumns && (
            <ParquetColumns
              columns={n.chooseColumns.columns}
              onRead={(parquetColumns) => {
                const files = n.chooseColumns!.files;
                dismiss(i);
                void ingestFiles(files, undefined, { parquetColumns });
              }}
            />
          )}
          <button type="button" aria-label="Dismiss" onClick={() => dismiss(i)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}

import { useDatasets } from '../state/datasets';

export function Notices() {
  const notices = useDatasets((s) => s.notices);
  const dismiss = useDatasets((s) => s.dismiss);
  const ingestFile = useDatasets((s) => s.ingestFile);
  if (notices.length === 0) return null;
  return (
    <div className="notices">
      {notices.map((n, i) => (
        <div key={i} className={`notice notice-${n.kind}`} role={n.kind === 'error' ? 'alert' : 'status'}>
          <span className="notice-text">{n.text}</span>
          {n.retry && (
            <button
              type="button"
              onClick={() => {
                dismiss(i);
                void ingestFile(n.retry!.file, { wholeFileGzip: n.retry!.wholeFileGzip });
              }}
            >
              Read anyway
            </button>
          )}
          <button type="button" aria-label="Dismiss" onClick={() => dismiss(i)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}

import { useDatasets } from '../state/datasets';

export function Notices() {
  const notices = useDatasets((s) => s.notices);
  const dismiss = useDatasets((s) => s.dismiss);
  if (notices.length === 0) return null;
  return (
    <div className="notices">
      {notices.map((n, i) => (
        <div key={i} className={`notice notice-${n.kind}`} role={n.kind === 'error' ? 'alert' : 'status'}>
          <span className="notice-text">{n.text}</span>
          <button type="button" aria-label="Dismiss" onClick={() => dismiss(i)}>
            ×
          </button>
        </div>
      ))}
    </div>
  );
}

/** A background job's progress bar, what it is doing, and Cancel. */
export function JobProgress({
  label,
  pct,
  text,
  onCancel,
}: {
  label: string;
  pct: number;
  text: string;
  onCancel(): void;
}) {
  return (
    <div className="analysis-progress">
      <div
        className="progress"
        role="progressbar"
        aria-label={label}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(pct)}
      >
        <div className="bar" style={{ width: `${pct}%` }} />
      </div>
      <span className="meta">
        {text}{' '}
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </span>
    </div>
  );
}

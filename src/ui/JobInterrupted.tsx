/**
 * A signatures or DUST job that a reload or a closed tab ended (state/job-marks.ts): said where its
 * result would be, with a one-click restart; nothing of it was written, so nothing else is shown.
 */
export function JobInterrupted({
  since,
  doing,
  onRestart,
  onDismiss,
  testId,
}: {
  since: number | null;
  /** What the job was doing, capitalised: "Computing signatures". */
  doing: string;
  onRestart(): void;
  onDismiss(): void;
  testId: string;
}) {
  if (since === null) return null;
  const at = new Date(since).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return (
    <div className="job-interrupted" role="status" data-testid={testId}>
      <p>
        <strong>Interrupted.</strong> {doing} (started at {at}) was interrupted: the tab running it was
        reloaded or closed before it finished, and nothing of it was kept.
      </p>
      <span className="job-interrupted-actions">
        <button type="button" onClick={onRestart}>
          Restart
        </button>
        <button type="button" className="link" onClick={onDismiss}>
          Dismiss
        </button>
      </span>
    </div>
  );
}

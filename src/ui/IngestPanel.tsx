import { useDatasets } from '../state/datasets';
import { fmtBytes, fmtDuration, fmtInt, plural, rateAndEta } from './format';

export function IngestPanel() {
  const job = useDatasets((s) => s.job)!;
  const cancel = useDatasets((s) => s.cancelJob);
  const resolve = useDatasets((s) => s.resolveCancelled);
  const p = job.progress;
  // Bytes over all the files of the crawl (a WACZ: the whole file).
  const total = p?.totalBytes ?? job.fileSize;
  const read = p?.bytesRead ?? 0;
  const pct = total > 0 ? Math.min(100, (read / total) * 100) : 0;
  const { rate, etaMs } = rateAndEta(read, total, p?.elapsedMs ?? 0);

  if (job.phase === 'ask') {
    return (
      <section className="ingest" role="alertdialog" aria-label="Ingest cancelled">
        <p>
          Cancelled reading <b>{job.fileName}</b> after {plural(job.pagesRead, 'page')}. Keep what was read?
        </p>
        <button type="button" onClick={() => void resolve(true)} autoFocus>
          Keep {plural(job.pagesRead, 'page')}
        </button>{' '}
        <button type="button" onClick={() => void resolve(false)}>
          Discard
        </button>
      </section>
    );
  }
  return (
    <section className="ingest" aria-label="Reading file">
      <div className="ingest-head">
        <span>
          Reading <b>{job.fileName}</b>
          {job.phase === 'cancelling' ? ' — cancelling…' : ''}
        </span>
        <button type="button" onClick={cancel} disabled={job.phase !== 'running'}>
          Cancel
        </button>
      </div>
      <div
        className="progress"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(pct)}
        aria-label="Ingest progress"
      >
        <div className="bar" style={{ width: `${pct}%` }} />
      </div>
      {p?.files !== undefined && p.files > 1 && p.file && (
        <div className="ingest-file" data-testid="ingest-file">
          File {fmtInt((p.fileIndex ?? 0) + 1)} of {fmtInt(p.files)}: <span className="name">{p.file}</span>
        </div>
      )}
      <div className="ingest-stats" data-testid="ingest-stats">
        {fmtBytes(read)} of {fmtBytes(total)} · {plural(p?.records ?? 0, 'record')} ·{' '}
        {plural(p?.pages ?? 0, 'page')} · {fmtBytes(rate)}/s ·{' '}
        {Number.isFinite(etaMs) ? `ETA ${fmtDuration(etaMs)}` : 'estimating time left…'}
      </div>
    </section>
  );
}

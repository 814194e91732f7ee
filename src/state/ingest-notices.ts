/** The notices the datasets pane shows, and their wording for a read that finished. */
import { emptyReason } from '../core/ingest/outcome';
import type { IngestSummary } from '../core/types';

export interface Notice {
  kind: 'error' | 'info' | 'warning';
  text: string;
  /**
   * The dataset the notice is about (a read's partial end, its skipped files, its problems): shown only
   * while that dataset is the one shown. Without it, the notice is about the tab (a busy reader, a read
   * that made no dataset, a dataset deleted in another tab).
   */
  datasetId?: number;
  /** A Parquet table whose documents' columns were not found: its files and columns, to choose them. */
  chooseColumns?: { files: File[]; columns: string[] };
}

/**
 * What a finished read's summary tells the analyst beside its dataset: a partial read, an empty one, files
 * skipped, files of several kinds read as one crawl, problems read past.
 */
export function summaryNotices(s: IngestSummary): Notice[] {
  const extra: Notice[] = [];
  if (s.error)
    extra.push({
      kind: 'error',
      text: `Partial: ${s.pages.toLocaleString('en-US')} pages kept. ${s.error.message}`,
    });
  const empty = emptyReason(s);
  if (empty) extra.push({ kind: 'warning', text: empty });
  const notCrawls = (s.sources ?? []).filter((x) => x.format === null);
  if (notCrawls.length > 0)
    extra.push({
      kind: 'warning',
      // Not only files of another kind: a damaged gzip is skipped too, so no "not a crawl".
      text: `Skipped ${notCrawls.length} file${notCrawls.length > 1 ? 's' : ''} that could not be read as a crawl: ${notCrawls
        .slice(0, 5)
        .map((x) => x.error?.message ?? x.name)
        .join('; ')}${notCrawls.length > 5 ? '; …' : ''}`,
    });
  const kinds = [...new Set((s.sources ?? []).flatMap((x) => (x.format ? [x.format] : [])))];
  if (kinds.length > 1)
    extra.push({
      kind: 'warning',
      text: `The files dropped together are of ${kinds.length} kinds (${kinds.join(', ')}): they were read as one crawl, one dataset. Drop them one at a time to keep them apart.`,
    });
  if (s.warningCount > 0)
    extra.push({
      kind: 'warning',
      // Each problem's message names its file (and where): no second file name before it.
      text: `${s.warningCount} problem${s.warningCount > 1 ? 's' : ''} read past${s.warningCount > 1 ? '; the first' : ''}: ${s.warnings[0].message}`,
    });
  return extra;
}

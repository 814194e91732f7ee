import { clusterParameters, clustersCsv, clustersJson } from '../../core/clusters/export';
import { clustersParquet, removeCsv, type DedupExportInput } from '../../core/clusters/dedup-export';
import { useAnalysis } from '../../state/analysis';
import type { shownClusters } from '../../state/clusters';
import { useDust } from '../../state/dust';
import { usePages } from '../../state/pages';
import { pageBySeq, pageCapture } from '../../state/selectors';
import { ExportProfileButton } from '../batch/ExportProfileButton';
import { ArchiveExports } from './ArchiveExports';
import { KeepPolicy } from './KeepPolicy';
import { download } from '../download';
import { exportFileName, exportSource, methodTags } from '../exports';

/**
 * The clusters' exports: JSON and CSV (every member, its SURT and canonical URL), Parquet (one row per
 * page with the copy kept, by the batch's rule) and the remove list, and the dedup profile.
 */
type View = ReturnType<typeof shownClusters>;

export function ExportButtons({ view }: { view: View }) {
  const analysis = useAnalysis((s) => s.analysis)!;
  const method = useAnalysis((s) => s.method);
  const thresholds = useAnalysis((s) => s.thresholds);
  const mode = useAnalysis((s) => s.mode);
  const keep = useAnalysis((s) => s.keep);
  const pages = usePages((p) => p.pages);
  const dustRun = useDust((d) => d.run);
  const canonical = useDust((d) => d.canonical);
  const input = (): DedupExportInput => {
    const bySeq = pageBySeq(pages);
    const page = (i: number) => bySeq.get(analysis.seqs[i]);
    const canonicalOf = (i: number) => {
      const p = page(i);
      return p ? (canonical.get(p.normUrl) ?? p.normUrl) : '';
    };
    return {
      clusters: view.clusters,
      url: (i) => page(i)?.url ?? '',
      canonical: dustRun ? canonicalOf : null,
      method,
      mode,
      thresholds,
      source: exportSource(clusterParameters(method, thresholds, mode, analysis.params)),
      keep,
      capture: (i) => pageCapture(page(i), analysis.seqs[i], dustRun ? canonical : null),
    };
  };
  const name = (ext: string) => exportFileName([...methodTags(method, thresholds), mode], 'clusters', ext);
  return (
    <span className="export">
      <KeepPolicy />
      <button type="button" onClick={() => download(name('json'), 'application/json', clustersJson(input()))}>
        Export clusters (JSON)
      </button>
      <button type="button" onClick={() => download(name('csv'), 'text/csv', clustersCsv(input()))}>
        Export clusters (CSV)
      </button>
      <button
        type="button"
        onClick={() => download(name('parquet'), 'application/vnd.apache.parquet', clustersParquet(input()))}
      >
        Export clusters (Parquet)
      </button>
      <button
        type="button"
        onClick={() =>
          download(
            exportFileName([...methodTags(method, thresholds), mode], 'remove-list', 'csv'),
            'text/csv',
            removeCsv(input()),
          )
        }
      >
        Export remove list (CSV)
      </button>
      <ExportProfileButton />
      <ArchiveExports view={view} />
      {!dustRun && <span className="meta"> canonical_url is empty: DUST rules have not been mined.</span>}
    </span>
  );
}

import { useState } from 'react';
import {
  clusterParameters,
  clustersCsv,
  clustersJson,
  decisions,
  memberLoss,
} from '../../core/clusters/export';
import { lostOf } from '../../state/losses';
import { plural } from '../format';
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
  const losesText = useAnalysis((s) => s.losesText);
  const removeLosing = useAnalysis((s) => s.removeLosing);
  const pages = usePages((p) => p.pages);
  // After an export: how many removed copies lose text, and whether they were removed; or an error.
  const [losses, setLosses] = useState<{ flagged: number; share: number; removed: boolean } | null>(null);
  const [busy, setBusy] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const dustRun = useDust((d) => d.run);
  const canonical = useDust((d) => d.canonical);
  // Every export reads the members' texts once (IndexedDB) to say which removed copy loses text.
  const input = async (): Promise<DedupExportInput> => {
    const bySeq = pageBySeq(pages);
    const page = (i: number) => bySeq.get(analysis.seqs[i]);
    const canonicalOf = (i: number) => {
      const p = page(i);
      return p ? (canonical.get(p.normUrl) ?? p.normUrl) : '';
    };
    const x: DedupExportInput = {
      clusters: view.clusters,
      url: (i) => page(i)?.url ?? '',
      canonical: dustRun ? canonicalOf : null,
      method,
      mode,
      thresholds,
      source: exportSource(clusterParameters(method, thresholds, mode, analysis.params)),
      keep,
      capture: (i) => pageCapture(page(i), analysis.seqs[i], dustRun ? canonical : null),
      lost: await lostOf(analysis, view.clusters, bySeq, pages),
      losesText,
      removeLosing,
    };
    let flagged = 0;
    for (const [n, d] of decisions(x).entries())
      if (d) for (const m of view.clusters[n].members) if (memberLoss(x, m, d.kept)?.flagged) flagged++;
    setLosses({ flagged, share: losesText, removed: removeLosing });
    return x;
  };
  const run = (f: (x: DedupExportInput) => void) => async () => {
    setBusy(true);
    setFailed(null);
    try {
      f(await input());
    } catch (e) {
      setFailed(e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  };
  const name = (ext: string) => exportFileName([...methodTags(method, thresholds), mode], 'clusters', ext);
  return (
    <span className="export">
      <KeepPolicy />
      <button
        type="button"
        disabled={busy}
        onClick={run((x) => download(name('json'), 'application/json', clustersJson(x)))}
      >
        Export clusters (JSON)
      </button>
      <button
        type="button"
        disabled={busy}
        onClick={run((x) => download(name('csv'), 'text/csv', clustersCsv(x)))}
      >
        Export clusters (CSV)
      </button>
      <button
        type="button"
        disabled={busy}
        onClick={run((x) => download(name('parquet'), 'application/vnd.apache.parquet', clustersParquet(x)))}
      >
        Export clusters (Parquet)
      </button>
      <button
        type="button"
        disabled={busy}
        onClick={run((x) =>
          download(
            exportFileName([...methodTags(method, thresholds), mode], 'remove-list', 'csv'),
            'text/csv',
            removeCsv(x),
          ),
        )}
      >
        Export remove list (CSV)
      </button>
      <ExportProfileButton />
      <ArchiveExports view={view} />
      {!dustRun && <span className="meta"> canonical_url is empty: DUST rules have not been mined.</span>}
      {busy && <span className="meta"> Reading the members’ texts…</span>}
      {failed && (
        <span className="error" role="alert">
          {' '}
          Export failed: {failed}
        </span>
      )}
      {losses && (
        <span className="meta" data-testid="loses-text-count">
          {' '}
          {losses.flagged === 0
            ? `No removed copy loses text (each holds at most ${Math.round(losses.share * 100)}% of shingles its kept copy lacks).`
            : `${plural(losses.flagged, 'copy', 'copies')} would lose text (more than ${Math.round(losses.share * 100)}% of their shingles are not in the kept copy): ${losses.removed ? 'removed all the same, flagged loses_text' : 'kept, flagged loses_text, not in the remove list'}.`}
        </span>
      )}
    </span>
  );
}

import { useRef, useState } from 'react';
import type { CdxjCapture } from '../../core/clusters/cdxj';
import { planRevisits, type DedupWarcStats } from '../../core/clusters/dedup-warc';
import { useAnalysis } from '../../state/analysis';
import { exportArchive, type shownClusters } from '../../state/clusters';
import { useDatasets } from '../../state/datasets';
import { useDust } from '../../state/dust';
import { usePages } from '../../state/pages';
import type { ArchiveRequest } from '../../workers/archive-export-job';
import { download } from '../download';
import { fmtBytes, fmtInt } from '../format';
import { HiddenFileInput } from '../FileButton';
import { pageCapture, selectedDataset } from '../../state/selectors';

type View = ReturnType<typeof shownClusters>;
type Kind = ArchiveRequest['kind'];

/**
 * For archivists, from the dataset's WARC chosen again (the workbench keeps pages, not the file's
 * bytes; checked by its size): "Write deduplicated WARC…", each duplicate capture as a revisit of the
 * copy kept in its cluster (core/clusters/dedup-warc.ts), and "Write CDXJ index…", pywb's index with each
 * capture's duplicate status (core/clusters/cdxj.ts), both written in a worker, then saved.
 */
export function ArchiveExports({ view }: { view: View }) {
  const analysis = useAnalysis((s) => s.analysis)!;
  const keep = useAnalysis((s) => s.keep);
  const pages = usePages((p) => p.pages);
  const rankOf = usePages((p) => p.rankOf);
  const dustRun = useDust((d) => d.run);
  const canonical = useDust((d) => d.canonical);
  const dataset = useDatasets((s) => selectedDataset(s) ?? null);
  const input = useRef<HTMLInputElement>(null);
  const [kind, setKind] = useState<Kind>('warc');
  const [state, setState] = useState<
    { kind: 'idle' } | { kind: 'writing'; percent: number } | { kind: 'failed'; message: string }
  >({ kind: 'idle' });
  // The last deduplicated WARC's statistics, kept when a CDXJ index is written after it.
  const [stats, setStats] = useState<DedupWarcStats | null>(null);
  if (!dataset || dataset.format !== 'warc' || dataset.container || (dataset.sources?.length ?? 1) > 1)
    return null;

  const write = async (file: File, what: Kind) => {
    if (file.size !== dataset.bytes) {
      setState({
        kind: 'failed',
        message: `${file.name} is not the file this dataset was read from (${fmtBytes(file.size)}; ${dataset.fileName} is ${fmtBytes(dataset.bytes)})`,
      });
      return;
    }
    // Every page of the WARC (the archivists' total URLs), the clusters' members found among them.
    const captures: CdxjCapture[] = pages.map((p) => ({
      ...pageCapture(p, p.seq, dustRun ? canonical : null),
      offset: p.offset,
      digest: p.digest,
      headers: p.mime ? [['Content-Type', p.mime]] : [],
      mime: p.mime,
      recordType: p.recordType,
    }));
    const clusters = view.clusters.map((c) =>
      c.members.map((m) => rankOf.get(analysis.seqs[m])).filter((k): k is number => k !== undefined),
    );
    const req: ArchiveRequest =
      what === 'cdxj'
        ? { kind: 'cdxj', file, captures, clusters, keep: [...keep] }
        : { kind: 'warc', file, ...planRevisits(captures, clusters, keep) };
    setState({ kind: 'writing', percent: 0 });
    const job = exportArchive(req, (p) =>
      setState({ kind: 'writing', percent: Math.round((100 * p.bytes) / Math.max(1, p.total)) }),
    );
    const r = await job.result;
    if (r.kind === 'done') {
      const base = file.name.replace(/(\.warc)?(\.gz)?$/i, '');
      const name = what === 'cdxj' ? `${base}.cdxj` : `${base}-dedup.warc${dataset.compressed ? '.gz' : ''}`;
      download(name, r.blob.type, await r.blob.arrayBuffer());
      setState({ kind: 'idle' });
      if (r.stats) setStats(r.stats);
    } else if (r.kind === 'failed') setState({ kind: 'failed', message: r.message });
    else setState({ kind: 'idle' });
  };
  const choose = (what: Kind) => {
    setKind(what);
    input.current?.click();
  };

  return (
    <span className="archive-exports">
      <button type="button" disabled={state.kind === 'writing'} onClick={() => choose('warc')}>
        Write deduplicated WARC…
      </button>
      <button type="button" disabled={state.kind === 'writing'} onClick={() => choose('cdxj')}>
        Write CDXJ index…
      </button>
      <HiddenFileInput
        ref={input}
        label={`The WARC this dataset was read from (${dataset.fileName})`}
        onFiles={(f) => void write(f[0], kind)}
      />
      {state.kind === 'writing' && <span className="meta"> writing… {state.percent}%</span>}
      {state.kind === 'failed' && (
        <span className="meta error" role="alert">
          {' '}
          {state.message}
        </span>
      )}
      {stats && (
        <span className="meta" data-testid="dedup-warc-stats">
          {' '}
          total URLs {fmtInt(stats.totalUrls)} · unique payloads {fmtInt(stats.uniquePayloads)} · duplicate
          URLs {fmtInt(stats.duplicateUrls)} (revisits) · near duplicates kept whole{' '}
          {fmtInt(stats.nearDuplicatesKept)} · bytes conserved {fmtBytes(stats.bytesConserved)} of{' '}
          {fmtBytes(stats.bytesIn)}
        </span>
      )}
    </span>
  );
}

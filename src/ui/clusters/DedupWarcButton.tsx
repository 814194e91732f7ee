import { useRef, useState } from 'react';
import { planRevisits, type DedupWarcStats, type WarcPage } from '../../core/clusters/dedup-warc';
import { useAnalysis } from '../../state/analysis';
import type { shownClusters } from '../../state/clusters';
import { useDatasets } from '../../state/datasets';
import { useDust } from '../../state/dust';
import { runWorkerJob } from '../../state/jobs';
import { usePages } from '../../state/pages';
import { startDedupWarcWorker } from '../../workers/client';
import { download } from '../download';
import { fmtBytes, fmtInt } from '../format';

type View = ReturnType<typeof shownClusters>;

/**
 * "Write deduplicated WARC…": the dataset's WARC, chosen again (the workbench keeps pages, not the
 * file's bytes), written with each duplicate capture as a revisit of the copy kept in its cluster
 * (core/clusters/dedup-warc.ts) in a worker, then saved. Only captures with the kept copy's payload
 * digest become revisits; the statistics say how many, in the words archivists use.
 */
export function DedupWarcButton({ view }: { view: View }) {
  const analysis = useAnalysis((s) => s.analysis)!;
  const pages = usePages((p) => p.pages);
  const dustRun = useDust((d) => d.run);
  const canonical = useDust((d) => d.canonical);
  const dataset = useDatasets((d) => d.datasets.find((x) => x.id === d.selectedId) ?? null);
  const input = useRef<HTMLInputElement>(null);
  const [state, setState] = useState<
    | { kind: 'idle' }
    | { kind: 'writing'; percent: number }
    | { kind: 'done'; stats: DedupWarcStats }
    | { kind: 'failed'; message: string }
  >({ kind: 'idle' });
  if (!dataset || dataset.format !== 'warc' || dataset.container || (dataset.sources?.length ?? 1) > 1)
    return null;

  const write = async (file: File) => {
    if (file.size !== dataset.bytes) {
      setState({
        kind: 'failed',
        message: `${file.name} is not the file this dataset was read from (${fmtBytes(file.size)}; ${dataset.fileName} is ${fmtBytes(dataset.bytes)})`,
      });
      return;
    }
    // Every page of the WARC (the archivists' total URLs), the clusters' members found among them.
    const index = new Map(pages.map((p, k) => [p.seq, k]));
    const warcPages: WarcPage[] = pages.map((p) => ({
      id: p.seq,
      url: p.url,
      status: p.status,
      fetchedAt: p.fetchedAt,
      isCanonical: !dustRun || (canonical.get(p.normUrl) ?? p.normUrl) === p.normUrl,
      offset: p.offset,
      digest: p.digest,
      headers: p.mime ? [['Content-Type', p.mime]] : [],
    }));
    const { revisits, stats } = planRevisits(
      warcPages,
      view.clusters.map((c) =>
        c.members.map((m) => index.get(analysis.seqs[m])!).filter((k) => k !== undefined),
      ),
    );
    setState({ kind: 'writing', percent: 0 });
    const job = runWorkerJob(
      startDedupWarcWorker,
      { file, revisits, stats },
      {
        onProgress: (p) =>
          setState({ kind: 'writing', percent: Math.round((100 * p.bytes) / Math.max(1, p.total)) }),
      },
    );
    const r = await job.result;
    if (r.kind === 'done') {
      const name =
        file.name.replace(/(\.warc)?(\.gz)?$/i, '') + '-dedup.warc' + (dataset.compressed ? '.gz' : '');
      download(name, 'application/warc', await r.blob.arrayBuffer());
      setState({ kind: 'done', stats: r.stats });
    } else if (r.kind === 'failed') setState({ kind: 'failed', message: r.message });
    else setState({ kind: 'idle' });
  };

  return (
    <span className="dedup-warc">
      <button type="button" disabled={state.kind === 'writing'} onClick={() => input.current?.click()}>
        Write deduplicated WARC…
      </button>
      <input
        ref={input}
        type="file"
        hidden
        aria-label={`The WARC this dataset was read from (${dataset.fileName})`}
        onChange={(e) => {
          const f = e.target.files?.[0];
          e.target.value = '';
          if (f) void write(f);
        }}
      />
      {state.kind === 'writing' && <span className="meta"> writing… {state.percent}%</span>}
      {state.kind === 'failed' && (
        <span className="meta error" role="alert">
          {' '}
          {state.message}
        </span>
      )}
      {state.kind === 'done' && (
        <span className="meta" data-testid="dedup-warc-stats">
          {' '}
          total URLs {fmtInt(state.stats.totalUrls)} · unique payloads {fmtInt(state.stats.uniquePayloads)} ·
          duplicate URLs {fmtInt(state.stats.duplicateUrls)} (revisits) · near duplicates kept whole{' '}
          {fmtInt(state.stats.nearDuplicatesKept)} · bytes conserved {fmtBytes(state.stats.bytesConserved)} of{' '}
          {fmtBytes(state.stats.bytesIn)}
        </span>
      )}
    </span>
  );
}

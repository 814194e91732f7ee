import { useMemo } from 'react';
import { sampleEstimates } from '../../core/sample/sample-plan';
import type { ClusterView } from '../../core/clusters/view';
import { useAnalysis } from '../../state/analysis';
import { exportFileName, methodTags, shellWord } from '../exports';
import { useDatasets } from '../../state/datasets';
import { usePages } from '../../state/pages';
import { fmtInt } from '../format';
import { selectedDataset } from '../../state/selectors';

const pct = (x: number) => `${(100 * x).toFixed(1)}%`;

/**
 * For a dataset read as a designed sample: the whole crawl's duplicate rate and pages removed, estimated
 * from the sample at the shown method and thresholds, beside the sample's own figures, with what the
 * estimate stands for and the batch command that computes it for every page.
 */
export function SampleEstimates({ view }: { view: ClusterView }) {
  const dataset = useDatasets(selectedDataset);
  const analysis = useAnalysis((s) => s.analysis);
  const method = useAnalysis((s) => s.method);
  const thresholds = useAnalysis((s) => s.thresholds);
  const mode = useAnalysis((s) => s.mode);
  const pages = usePages((s) => s.pages);
  const sample = dataset?.sample;
  const est = useMemo(() => {
    if (!sample || !analysis) return null;
    const clusterOfSeq = new Map<number, number>();
    view.clusters.forEach((c, k) => {
      for (const m of c.members) clusterOfSeq.set(analysis.seqs[m], k);
    });
    return sampleEstimates(sample, pages, (seq) => clusterOfSeq.get(seq) ?? null);
  }, [sample, analysis, view, pages]);
  if (!sample || !est) return null;
  const { rate, removed, pages: total } = est.whole;
  const files = sample.crawlFiles.map(shellWord).join(' ');
  // The name "Export dedup profile" gives the file (ExportProfileButton).
  const profileName = exportFileName([...methodTags(method, thresholds), mode], 'dedup-profile', 'json');
  return (
    <section className="sample-estimates" aria-label="Whole-crawl estimates" data-testid="sample-estimates">
      <h3>Whole crawl, estimated from this sample</h3>
      <p>
        Duplicate rate <strong data-testid="whole-rate">{pct(rate.value)}</strong> (95% interval{' '}
        {pct(rate.lo)}–{pct(rate.hi)}): about {fmtInt(Math.round(removed.value))} of {fmtInt(total)} pages
        removed ({fmtInt(Math.round(removed.lo))}–{fmtInt(Math.round(removed.hi))}).
      </p>
      <p className="meta">
        In the sample: {fmtInt(est.sample.duplicates)} of {fmtInt(est.sample.pages)} pages (
        {pct(est.sample.pages ? est.sample.duplicates / est.sample.pages : 0)}). Sample of{' '}
        {sample.chosen.length} of {fmtInt(sample.population.units)} site groups ({sample.certain.length} of
        the largest taken whole, the others drawn with π = {sample.pi.toPrecision(3)}), seed {sample.seed},
        from {sample.index}.
      </p>
      <p className="meta">
        Exact copies (same payload digest) are counted on the whole index; near copies are estimated from the
        site groups read — a near copy on an unrelated site outside the sample is not seen.
      </p>
      <p className="meta">
        For every page: export the profile, then{' '}
        <code data-testid="batch-command">
          npm run batch -- --profile {shellWord(profileName)} --out whole-crawl/{' '}
          {files || '<the crawl’s WARC files>'}
        </code>
      </p>
    </section>
  );
}

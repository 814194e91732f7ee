/**
 * What `analyze --sample` prints: the design it read (its pages of the index's, units, bytes, the index) and
 * the whole crawl's estimates beside the sample's own figures.
 */
import type { SampleEstimates, SampleInfo } from '../core/sample/sample-plan';

/** What a sample is: its pages of the index's, its units, the bytes it reads, the index it was read by. */
export function sampleText(info: SampleInfo): string {
  const mb = (b: number) => `${(b / 1e6).toFixed(1)} MB`;
  return [
    `sample      ${info.chosen.reduce((a, u) => a + (info.unitPages[u] ?? 0), 0).toLocaleString('en-US')} of the index's ${info.population.pages.toLocaleString('en-US')} HTML pages: ${info.chosen.length} of ${info.population.units.toLocaleString('en-US')} site groups (${info.certain.length} taken whole, the others drawn with π = ${info.pi.toPrecision(3)}), seed ${info.seed}`,
    `            ${mb(info.bytesRead)} of ${mb(info.population.bytes)} read by byte ranges; index: ${info.index}${info.badLines ? `; ${info.badLines} index lines not read` : ''}${info.missingFiles.length ? `; records in files not given: ${info.missingFiles.join(', ')}` : ''}`,
  ].join('\n');
}

/** The whole crawl's estimates from a sample, beside the sample's own figures. */
export function estimateText(e: SampleEstimates): string {
  const pct = (x: number) => `${(100 * x).toFixed(2)}%`;
  const { rate, removed, pages } = e.whole;
  return [
    `whole crawl duplicate rate ${pct(rate.value)} (95% interval ${pct(rate.lo)}–${pct(rate.hi)}), about ${Math.round(removed.value).toLocaleString('en-US')} of ${pages.toLocaleString('en-US')} pages removed (${Math.round(removed.lo).toLocaleString('en-US')}–${Math.round(removed.hi).toLocaleString('en-US')}), estimated from the sample`,
    `            in the sample: ${e.sample.duplicates.toLocaleString('en-US')} of ${e.sample.pages.toLocaleString('en-US')} pages; exact copies counted on the whole index, near copies on other sites outside the sample not seen`,
  ].join('\n');
}

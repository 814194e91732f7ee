/**
 * DustBuster on a designed sample (issue 45): mined on the URL layer (every HTML URL of the crawl's
 * index), validated first on the sampled pages; then the partners of sampled URLs — the other URL of a
 * likely rule's instance — are read by byte range from the index's places (as the sample itself is
 * read), and the rules validated again with them in hand. A rule still not validated carries what the
 * sample holds of its instances (Rule.sample: "not validated: k of n instances in the sample").
 */
import { buildUrlList } from './url-list';
import { datasetFetch, runDustBuster, type DustResult, type PhaseCallback } from './index';
import { choosePartners, PARTNER_CAPS, SampleInstances, sampleCoverage, type PartnerCaps } from './partners';
import type { DustParams, DustPhase, DustRecord, FetchFn, Rule } from './types';

/** What reading partners gives back (core/sample/partner-read.ts RecordsRead). */
export interface PartnersRead {
  records: DustRecord[];
  bytes: number;
  ranges: number;
  ms: number;
}

/** Reads the partners' records by URL; `missing`: why none can be read here. */
export type PartnerSource =
  | { read(urls: string[]): Promise<PartnersRead> }
  /** The crawl's files are not at hand (another tab read the sample, or the page was reloaded). */
  | { missing: 'no-files' }
  /** The sample's URL layer gives no places (stored before they were kept). */
  | { missing: 'no-places' };

/** What the partner read did, kept with the run (StoredDustRun.partners). */
export interface PartnerReport {
  /** 'read': partners read; 'none': no likely rule had an instance with one URL in the sample. */
  state: 'read' | 'none' | 'no-files' | 'no-places';
  /** Likely rules after validation on the sample alone, and those given partners. */
  likelyBefore: number;
  rules: number;
  /** Partners chosen (URLs), and of them read with a document. */
  asked: number;
  read: number;
  /** Record bytes read and the ranges they were read in; the read's time (ms). */
  bytes: number;
  ranges: number;
  ms: number;
  /** Partners the rules asked for before the overall cap, and whether the cap left some out. */
  wanted: number;
  capped: boolean;
  caps: PartnerCaps;
  /** Validation samples judged (similar + not similar, over every rule) on the sample alone, then with partners. */
  judgedBefore: number;
  judgedAfter: number;
}

/** Rules Fig. 4 left likely for want of samples, not because a valid rule covers them. */
function wantsSamples(r: Rule): boolean {
  return (
    r.status === 'likely' &&
    r.pending !== 'refines-valid' &&
    r.pending !== 'special-case' &&
    r.pending !== 'composition'
  );
}

const judged = (r: DustResult) =>
  [...r.rules, ...r.folded].reduce((a, x) => a + x.positives + x.negatives, 0);

export async function dustOnSample(
  mined: DustRecord[],
  sampled: DustRecord[],
  params: DustParams,
  partners: PartnerSource,
  onPhase?: (phase: DustPhase | 'partners', done?: number, total?: number) => void,
  caps: PartnerCaps = { perRule: params.N, ...PARTNER_CAPS },
): Promise<{ result: DustResult; partners: PartnerReport }> {
  const phase: PhaseCallback = (p, x, y) => onPhase?.(p, x, y);
  const sampleUrls = buildUrlList(sampled).urls;
  const sampleFetch = datasetFetch(sampleUrls);
  const first = runDustBuster(mined, params, sampleFetch, phase);
  const likely = first.rules.filter(wantsSamples);
  const report: PartnerReport = {
    state: 'none',
    likelyBefore: first.rules.filter((r) => r.status === 'likely').length,
    rules: 0,
    asked: 0,
    read: 0,
    bytes: 0,
    ranges: 0,
    ms: 0,
    wanted: 0,
    capped: false,
    caps,
    judgedBefore: judged(first),
    judgedAfter: judged(first),
  };
  const instances = new SampleInstances(buildUrlList(mined).urls, params);
  const has = (fetch: FetchFn) => (url: string) => fetch(url) !== null;
  const inSample = has(sampleFetch);
  let result = first;
  let handFetch = sampleFetch;
  if (likely.length > 0) {
    onPhase?.('partners', 0, likely.length);
    const choice = choosePartners(likely, instances, inSample, caps, params.seed);
    Object.assign(report, { rules: choice.rules, asked: choice.urls.length, wanted: choice.wanted });
    report.capped = choice.capped;
    if (choice.urls.length > 0) {
      if ('missing' in partners) report.state = partners.missing;
      else {
        const got = await partners.read(choice.urls);
        Object.assign(report, {
          state: 'read',
          read: got.records.filter((r) => r.sketch || r.digest).length,
          bytes: got.bytes,
          ranges: got.ranges,
          ms: got.ms,
        });
        handFetch = datasetFetch(buildUrlList([...sampled, ...got.records]).urls);
        result = runDustBuster(mined, params, handFetch, phase);
        report.judgedAfter = judged(result);
      }
    }
  }
  const inHand = has(handFetch);
  for (const r of result.rules)
    if (r.status === 'likely') r.sample = sampleCoverage(r, instances, inSample, inHand);
  return { result, partners: report };
}

/**
 * Rules valid on one site, tried on the others. Not in the paper, which mines each site alone (§1: "we
 * focus on mining dust rules within a given web site"): a site with too few instances of a rule to
 * reach MS (a mirror with two directories, one host of many in 'host' mode) never gets it, and its
 * dir/index.html and dir/ stay apart although the rule was found and validated next door. A rule
 * without a host part (it neither starts at ^ nor names one) is a hypothesis about any site; it is
 * applied to a site only after Fig. 3 validated it on that site's own instances.
 */
import { seededRandom } from '../random';
import { ruleSpelling, UrlIndex } from './rules';
import { countSupport } from './pair-rules';
import { groupBySite } from './url-list';
import { composedOf } from './composition';
import { validateRule } from './validation';
import type { DustParams, DustUrl, FetchFn, Rule, SubstringRule } from './types';

/** Whether a rule may hold on any site: it does not touch the scheme and host. */
function hostFree(r: SubstringRule): boolean {
  return r.alpha[0] !== '^' && r.beta[0] !== '^' && !r.alpha.includes(':') && !r.beta.includes(':');
}

/** Copies of valid host-free substring rules for the other sites where they validate; ids from firstId. */
export function transferRules(
  rules: readonly Rule[],
  detection: readonly DustUrl[],
  testList: readonly DustUrl[],
  fetch: FetchFn,
  params: DustParams,
  firstId: number,
): SubstringRule[] {
  const sites = groupBySite(detection, params.site);
  if (sites.size < 2) return [];
  const tests = groupBySite(testList, params.site);
  const spelled = new Set(rules.map((r) => `${r.site}\u0000${ruleSpelling(r)}`));
  const out: SubstringRule[] = [];
  const valid = rules.filter((r) => r.status === 'valid');
  const indexes = new Map<string, [UrlIndex, UrlIndex]>();
  for (const r of valid) {
    if (r.kind !== 'substring' || !hostFree(r)) continue;
    for (const [site, list] of sites) {
      if (site === r.site || spelled.has(`${site}\u0000${ruleSpelling(r)}`)) continue;
      let ix = indexes.get(site);
      if (!ix) indexes.set(site, (ix = [new UrlIndex(list), new UrlIndex(tests.get(site) ?? [])]));
      const copy: SubstringRule = {
        ...r,
        id: firstId + out.length,
        site,
        origin: 'transfer',
        support: 0,
        likelySimilarSupport: 0,
        redundancySupport: 0,
        positives: 0,
        negatives: 0,
        instances: [],
        refinesValid: null,
        coveredBy: undefined,
        absorbs: undefined,
        negativeSamples: undefined,
      };
      countSupport(copy, ix[0], params.likelySimilarJaccard);
      if (copy.likelySimilarSupport === 0) continue;
      // Nothing to add where the site's own valid rules already merge every instance.
      const mine = [...valid, ...out].filter((v) => v.site === site);
      if (composedOf(copy, ix[1], mine, params.maxIterations)) continue;
      const o = validateRule(copy, ix[1], fetch, params, seededRandom(params.seed ^ (0x7f4a7c15 + copy.id)));
      if (o.verdict !== 'valid') continue;
      copy.positives = o.positives;
      copy.negatives = o.negatives;
      if (o.negativeSamples.length > 0) copy.negativeSamples = o.negativeSamples;
      copy.reason = `valid on ${r.site || 'the list'} (#${r.id}) and here: ${o.reason}`;
      out.push(copy);
    }
  }
  return out;
}

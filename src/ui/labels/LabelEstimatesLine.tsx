import type { Estimate } from '../../core/eval/estimators';
import { useLabelEstimates } from '../../state/label-estimates';
import { plural } from '../format';
import { methodSetting } from '../method-name';

/** 71% [52–85%]; '–' when no labelled pair bears on it (0/0). */
export function fmtEstimate(e: Estimate): string {
  if (!Number.isFinite(e.value)) return '–';
  return `${(100 * e.value).toFixed(0)}% [${(100 * e.lo).toFixed(0)}–${(100 * e.hi).toFixed(0)}%]`;
}

/** "3 labels imported and 2 of pairs picked by hand (a cluster's)": the labels outside the design. */
function outside(unsampled: number, imported: number): string {
  const byHand = unsampled - imported;
  const parts = [
    imported > 0 ? `${plural(imported, 'label')} imported` : '',
    byHand > 0
      ? `${imported > 0 ? byHand.toLocaleString('en-US') : plural(byHand, 'label')} of pairs picked by hand (a cluster's)`
      : '',
  ];
  return parts.filter(Boolean).join(' and ');
}

/**
 * Precision and recall from the hand labels at the chosen method and thresholds, named, with their 95%
 * intervals — beside the labels and in the PR pane, from the one selector (state/label-estimates.ts).
 * Without labels of a probability sample it says so instead of showing a number.
 */
export function LabelEstimatesLine({ testId, hideEmpty = false }: { testId: string; hideEmpty?: boolean }) {
  const e = useLabelEstimates();
  if (!e) return null;
  const setting = methodSetting(e.method, e.thresholds);
  if (e.n === 0) {
    if (hideEmpty) return null;
    return (
      <p className="meta" data-testid={testId}>
        {e.unsampled === 0
          ? `No labels yet: precision and recall of ${setting} from hand labels appear here as pairs are labelled.`
          : `${outside(e.unsampled, e.imported)}, not drawn by this dataset's sampling design: no estimate of ${setting} from them.`}
      </p>
    );
  }
  return (
    <p className="meta" data-testid={testId}>
      From {plural(e.n, 'label')}, {setting}: precision {fmtEstimate(e.precision)}, recall{' '}
      {fmtEstimate(e.recall)}
      {e.wholeCrawl ? ' for the whole crawl (each label weighted by the sample’s design too)' : ''} (95%
      Wilson intervals on the design-weighted labels
      {e.unsampled > 0 ? `; ${outside(e.unsampled, e.imported)} left out, outside the design` : ''})
    </p>
  );
}

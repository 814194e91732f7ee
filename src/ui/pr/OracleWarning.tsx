import { METHOD_LABELS } from '../../core/candidates/methods';
import type { Oracle } from '../../core/eval/figure1';
import type { OracleOverlap } from '../../core/eval/oracle-overlap';

/**
 * The methods among the drawn curves that measure what the oracle measures: their curves show agreement
 * with the oracle, not how well they find replicas.
 */
export function OracleWarning({ oracle, overlaps }: { oracle: Oracle; overlaps: readonly OracleOverlap[] }) {
  return (
    <div className="oracle-warning" role="note" data-testid="oracle-warning">
      <b>
        The {oracle === 'cosine' ? 'cosine' : 'Jaccard'} oracle measures what{' '}
        {overlaps.map((o) => METHOD_LABELS[o.method]).join(' and ')}{' '}
        {overlaps.length === 1 ? 'measures' : 'measure'}:
      </b>{' '}
      their curves show agreement with the oracle, not how well they find replicas.
      <ul>
        {overlaps.map((o) => (
          <li key={o.method}>
            {METHOD_LABELS[o.method]} ({o.strength === 'same' ? 'same score' : 'same features'}): {o.why}.
          </li>
        ))}
      </ul>
      Judge {overlaps.length === 1 ? 'it' : 'them'} with the other oracle or with hand labels.
    </div>
  );
}

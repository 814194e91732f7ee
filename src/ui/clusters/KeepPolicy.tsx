import { KEEP_HELP, KEEP_KEYS, KEEP_REASONS, type KeepKey } from '../../core/clusters/kept';
import { useAnalysis } from '../../state/analysis';

/**
 * The kept-copy policy (core/clusters/kept.ts): which copy of a cluster is kept, key by key in order.
 * Each key can be turned off or moved up; the cluster detail, every export, the profile and the batch
 * apply the same list.
 */
export function KeepPolicy() {
  const keep = useAnalysis((s) => s.keep);
  const setKeep = useAnalysis((s) => s.setKeep);
  const losesText = useAnalysis((s) => s.losesText);
  const removeLosing = useAnalysis((s) => s.removeLosing);
  const setLosesText = useAnalysis((s) => s.setLosesText);
  const off = KEEP_KEYS.filter((k) => !keep.includes(k));
  const toggle = (k: KeepKey) => setKeep(keep.includes(k) ? keep.filter((x) => x !== k) : [...keep, k]);
  const up = (i: number) => {
    if (i === 0) return;
    const next = [...keep];
    [next[i - 1], next[i]] = [next[i], next[i - 1]];
    setKeep(next);
  };
  return (
    <fieldset className="keep-policy" data-testid="keep-policy">
      <legend>Copy kept in each cluster, by</legend>
      <ol>
        {keep.map((k, i) => (
          <li key={k}>
            <label title={KEEP_HELP[k]}>
              <input type="checkbox" checked onChange={() => toggle(k)} /> {KEEP_REASONS[k]}
            </label>{' '}
            {i > 0 && (
              <button
                type="button"
                className="link"
                aria-label={`move ${KEEP_REASONS[k]} up`}
                onClick={() => up(i)}
              >
                ↑
              </button>
            )}
          </li>
        ))}
        {off.map((k) => (
          <li key={k} className="meta">
            <label title={KEEP_HELP[k]}>
              <input type="checkbox" checked={false} onChange={() => toggle(k)} /> {KEEP_REASONS[k]} (off)
            </label>
          </li>
        ))}
      </ol>
      <span className="meta">
        Then the shortest URL. The exports, the dedup profile and the batch keep the same copy.
      </span>
      <div className="loses-text">
        <label title="A removed copy whose word shingles are missing from the kept copy beyond this share is flagged loses_text">
          Flag a copy that would lose more than{' '}
          <input
            type="number"
            min={0}
            max={100}
            step={1}
            value={Math.round(losesText * 100)}
            aria-label="share of text a removed copy may lose, in percent"
            onChange={(e) => {
              const v = Number(e.target.value);
              if (Number.isFinite(v) && v >= 0 && v <= 100) setLosesText(v / 100, removeLosing);
            }}
          />
          % of its text
        </label>{' '}
        <label>
          <input
            type="checkbox"
            checked={removeLosing}
            onChange={(e) => setLosesText(losesText, e.target.checked)}
          />{' '}
          and remove it all the same
        </label>
      </div>
    </fieldset>
  );
}

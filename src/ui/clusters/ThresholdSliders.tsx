import { RANGES, type MethodId, type Thresholds } from '../../core/candidates/methods';
import { LSH_RECALL, lshFloor } from '../../core/signatures/lsh';
import { activeRange, deadTravel, type ActiveRange } from '../../core/candidates/slider-range';
import { useMemo } from 'react';
import { useAnalysis } from '../../state/analysis';

interface SliderSpec {
  key: 'C' | 'D' | 'a' | 'jaccard' | 'hamming';
  label: string;
  step: number;
  help: string;
}

const SLIDERS: Record<MethodId, SliderSpec[]> = {
  exact: [],
  'rp-hm': [
    { key: 'C', label: 'C (HM, ‖ΔX‖∞ <)', step: 0.005, help: 'C = 1: RP signature only' },
    { key: 'D', label: 'D (RP, ‖ΔR‖∞ <)', step: 0.001, help: 'candidates were generated at the largest D' },
  ],
  'feature-code': [{ key: 'a', label: 'a (length ratio ≤)', step: 0.01, help: 'Peng et al.: 1.10 best' }],
  minhash: [{ key: 'jaccard', label: 'Jaccard ≥', step: 0.01, help: 'exact Jaccard of LSH candidates' }],
  simhash: [{ key: 'hamming', label: 'Hamming ≤', step: 1, help: 'Manku et al.: 3 of 64 bits' }],
};

export function ThresholdSliders({ method }: { method: MethodId }) {
  const t = useAnalysis((s) => s.thresholds);
  const setThreshold = useAnalysis((s) => s.setThreshold);
  const analysisMaxD = useAnalysis((s) => s.analysis?.maxD);
  const rpPairs = useAnalysis((s) => s.analysis?.candidates?.rpGrid);
  const rpPerPage = useAnalysis((s) => s.analysis?.params?.maxRpPairsPerPage);
  const bands = useAnalysis((s) => s.analysis?.bands);
  const pairs = useAnalysis((s) => s.analysis?.pairs);
  // Where each slider acts, the other thresholds held (core/candidates/slider-range.ts).
  const ranges = useMemo(() => {
    const out = new Map<SliderSpec['key'], ActiveRange | null>();
    if (pairs) for (const s of SLIDERS[method]) out.set(s.key, activeRange(pairs, method, s.key, t));
    return out;
  }, [pairs, method, t]);
  // The lowest Jaccard the stored LSH bands propose with probability ≥ LSH_RECALL: below it the slider
  // would read incomplete candidates (an analysis made with a higher 'LSH: lowest Jaccard caught').
  const jaccardFloor = bands ? Math.ceil(lshFloor(bands.bands, bands.rows) * 100 - 1e-6) / 100 : 0;
  const specs = SLIDERS[method];
  return (
    <div className="sliders">
      {specs.length === 0 && <span className="empty">Exact fingerprints have no threshold.</span>}
      {specs.map((s) => {
        const [rangeLo, rangeHi] = RANGES[s.key];
        const lo = s.key === 'jaccard' ? Math.max(rangeLo, jaccardFloor) : rangeLo;
        // D cannot go past what the stored candidates cover (the engine's pair budget may have cut it).
        const hi = s.key === 'D' && analysisMaxD !== undefined ? Math.min(rangeHi, analysisMaxD) : rangeHi;
        const v = t[s.key];
        return (
          <label key={s.key} className="slider" title={s.help}>
            <span>{s.label}</span>
            <input
              type="range"
              min={lo}
              max={hi}
              step={s.step}
              value={v}
              aria-label={s.key}
              onChange={(e) => setThreshold(s.key, Number(e.target.value) as Thresholds[typeof s.key])}
            />
            <output>{s.step >= 1 ? v : v.toFixed(s.step < 0.01 ? 3 : 2)}</output>
            {s.key === 'D' && hi < rangeHi && rpPairs !== undefined && (
              <span className="slider-note" data-testid="d-budget">
                {`to ${hi.toFixed(3)}: past it the RP grid proposes more pairs than its budget${rpPerPage !== undefined ? ` (${rpPerPage} a page)` : ''}; the ${rpPairs.toLocaleString('en-US')} closest are kept`}
              </span>
            )}
            <DeadTravel
              name={s.key}
              range={ranges.get(s.key) ?? null}
              min={lo}
              max={hi}
              others={method === 'rp-hm' ? (s.key === 'C' ? ' within D' : ' within C') : ''}
              digits={s.step >= 1 ? 0 : s.step < 0.01 ? 3 : 2}
            />
            {lo > rangeLo && bands && (
              <span className="slider-note" data-testid="jaccard-floor">
                from {lo.toFixed(2)}: LSH bands {bands.bands} × {bands.rows} propose a pair below it with
                probability under {Math.round(LSH_RECALL * 100)}% — recompute with a lower “LSH: lowest
                Jaccard caught” to reach {rangeLo.toFixed(2)}
              </span>
            )}
          </label>
        );
      })}
      {method === 'feature-code' && (
        <label className="check">
          <input
            type="checkbox"
            checked={t.fcLengthCheck}
            onChange={(e) => setThreshold('fcLengthCheck', e.target.checked)}
          />
          with length check
        </label>
      )}
    </div>
  );
}

/**
 * The stretches of a slider's travel that change nothing, said: "C above 0.150: every candidate pair
 * within D already passes". Honest controls (issue "Every screen readable…", scope 3).
 */
function DeadTravel({
  name,
  range,
  min,
  max,
  others,
  digits,
}: {
  name: string;
  range: ActiveRange | null;
  min: number;
  max: number;
  others: string;
  digits: number;
}) {
  const dead = deadTravel(range, min, max);
  if (dead.length === 0) return null;
  const f = (v: number) => v.toFixed(digits);
  return (
    <span className="slider-note" data-testid={`dead-travel-${name}`}>
      {dead
        .map(
          (d) =>
            `${name} ${d.from <= min ? `below ${f(d.to)}` : `above ${f(d.from)}`}: ${
              d.all ? `every candidate pair${others} already passes` : `no candidate pair${others} passes`
            }`,
        )
        .join('; ')}{' '}
      — the slider changes nothing there ({range!.pairs.toLocaleString('en-US')} pairs act between{' '}
      {f(range!.lo)} and {f(range!.hi)})
    </span>
  );
}

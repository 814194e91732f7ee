import { ENGINE_DEFAULTS, type EngineParams } from '../../core/candidates/engine-params';
import { useAnalysis } from '../../state/analysis';
import { ParamField, ParamsDetails, type ParamKind } from '../ParamField';

interface Field {
  label: string;
  help: string;
  get(p: EngineParams): number | boolean | string;
  set(p: EngineParams, v: string | boolean): EngineParams;
  kind: ParamKind;
  options?: string[];
  step?: number;
}

const num = (v: string | boolean) => Number(v);

/** Every signature parameter at its document's default; a change needs a recomputation. */
const FIELDS: Field[] = [
  {
    label: 'Template text',
    help: 'strip: signatures read each page without the lines its site repeats on many pages (menus, headers, footers); keep: the whole page, as the papers compare it',
    kind: 'select',
    options: ['strip', 'keep'],
    get: (p) => (p.template.strip ? 'strip' : 'keep'),
    set: (p, v) => ({ ...p, template: { ...p.template, strip: v === 'strip' } }),
  },
  {
    label: 'Captures of one URL',
    help: 'one page: re-fetches of a URL are one page, its earliest capture standing for it (as in the batch), the others listed with it; each capture: every capture its own page (to compare captures)',
    kind: 'select',
    options: ['one page', 'each capture'],
    get: (p) => (p.captures === 'each' ? 'each capture' : 'one page'),
    set: (p, v) => ({ ...p, captures: v === 'each capture' ? 'each' : 'url' }),
  },
  {
    label: 'Template: min share',
    help: 'a line is template when on at least this share of its site’s distinct pages',
    kind: 'number',
    step: 0.01,
    get: (p) => p.template.minShare,
    set: (p, v) => ({ ...p, template: { ...p.template, minShare: num(v) } }),
  },
  {
    label: 'RP: K',
    help: 'dimensions (Di Iorio et al.: 5)',
    kind: 'number',
    get: (p) => p.rp.K,
    set: (p, v) => ({ ...p, rp: { ...p.rp, K: num(v) } }),
  },
  {
    label: 'RP: seed',
    help: 'seed of the projection',
    kind: 'number',
    get: (p) => p.rp.seed,
    set: (p, v) => ({ ...p, rp: { ...p.rp, seed: num(v) } }),
  },
  {
    label: 'RP: weighting',
    help: 'bag of words as raw counts or unit length',
    kind: 'select',
    options: ['unit', 'tf'],
    get: (p) => p.rp.weighting,
    set: (p, v) => ({ ...p, rp: { ...p.rp, weighting: v as 'unit' | 'tf' } }),
  },
  {
    label: 'HM: γ',
    help: 'damping of equation (1)',
    kind: 'number',
    step: 0.01,
    get: (p) => p.hm.gamma,
    set: (p, v) => ({ ...p, hm: { ...p.hm, gamma: num(v) } }),
  },
  {
    label: 'HM: iterations',
    help: '3–5 in the paper',
    kind: 'number',
    get: (p) => p.hm.iterations,
    set: (p, v) => ({ ...p, hm: { ...p.hm, iterations: num(v) } }),
  },
  {
    label: 'Feature code: L',
    help: 'symbols each side of 。 (Peng et al.: 5)',
    kind: 'number',
    get: (p) => p.fc.L,
    set: (p, v) => ({ ...p, fc: { ...p.fc, L: num(v) } }),
  },
  {
    label: 'Feature code: tolerance',
    help: 'LCS ≥ 2L − tolerance',
    kind: 'number',
    get: (p) => p.fc.tolerance,
    set: (p, v) => ({ ...p, fc: { ...p.fc, tolerance: num(v) } }),
  },
  {
    label: 'Shingles: w',
    help: 'words per shingle',
    kind: 'number',
    get: (p) => p.shingles.w,
    set: (p, v) => ({ ...p, shingles: { ...p.shingles, w: num(v) } }),
  },
  {
    label: 'Shingles: CJK n',
    help: 'characters per shingle in CJK text',
    kind: 'number',
    get: (p) => p.shingles.cjkN,
    set: (p, v) => ({ ...p, shingles: { ...p.shingles, cjkN: num(v) } }),
  },
  {
    label: 'MinHash: permutations',
    help: '128',
    kind: 'number',
    get: (p) => p.minhash.permutations,
    set: (p, v) => ({ ...p, minhash: { ...p.minhash, permutations: num(v) } }),
  },
  {
    label: 'LSH: lowest Jaccard caught',
    help: 'bands chosen so a pair at it is a candidate with 99% probability: the Jaccard slider’s minimum (0.3)',
    kind: 'number',
    step: 0.05,
    get: (p) => p.minhash.threshold,
    set: (p, v) => ({ ...p, minhash: { ...p.minhash, threshold: num(v) } }),
  },
  {
    label: 'LSH: every pair up to',
    help: 'pages a bucket (100); a larger bucket pairs each page with its first anchors only, as the batch does',
    kind: 'number',
    get: (p) => p.minhash.fullBucket,
    set: (p, v) => ({ ...p, minhash: { ...p.minhash, fullBucket: num(v) } }),
  },
  {
    label: 'LSH: anchors',
    help: 'pages of a large bucket every other page is compared with (2)',
    kind: 'number',
    get: (p) => p.minhash.anchors,
    set: (p, v) => ({ ...p, minhash: { ...p.minhash, anchors: num(v) } }),
  },
  {
    label: 'Stop words',
    help: 'drop English stop words from the bag of words',
    kind: 'check',
    get: (p) => p.stopWords,
    set: (p, v) => ({ ...p, stopWords: v === true }),
  },
];

export function ParamsPanel() {
  const params = useAnalysis((s) => s.params);
  const setParams = useAnalysis((s) => s.setParams);
  const stale = useAnalysis((s) => s.stale);
  const computing = useAnalysis((s) => s.computing);
  const compute = useAnalysis((s) => s.compute);
  return (
    <ParamsDetails
      title="Signature parameters"
      stale={stale}
      staleNote="changed: recomputation needed"
      note={
        stale ? (
          <>
            The clusters shown were computed with other parameters.{' '}
            <button type="button" onClick={() => void compute()} disabled={computing}>
              Recompute in the background
            </button>
          </>
        ) : (
          'Thresholds (sliders) never need a recomputation; these do.'
        )
      }
      onDefaults={() => setParams(ENGINE_DEFAULTS)}
    >
      {FIELDS.map((f) => (
        <ParamField
          key={f.label}
          label={f.label}
          help={f.help}
          kind={f.kind}
          value={f.get(params)}
          options={f.options}
          step={f.step}
          onChange={(v) => setParams(f.set(params, v))}
        />
      ))}
    </ParamsDetails>
  );
}

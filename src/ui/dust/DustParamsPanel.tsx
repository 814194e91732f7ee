import { DUST_DEFAULTS, PAPER_SETTING, type DustParams } from '../../core/dust';
import { useDust } from '../../state/dust';
import { ParamField, ParamsDetails } from '../ParamField';

type Key = keyof DustParams;

interface Field {
  key: Key;
  /** As the paper writes it; the key itself when absent. */
  label?: string;
  help: string;
  step?: number;
  options?: string[];
}

/** Every DustBuster parameter at the paper's default (§6), then the ones this tool adds. */
const FIELDS: Field[] = [
  { key: 'S', help: 'maximum substring length in tokens (35)' },
  { key: 'Tlow', label: 'T_low', help: 'maximum bucket size for detection (6)' },
  { key: 'Thigh', label: 'T_high', help: 'maximum bucket size for redundancy elimination (11)' },
  { key: 'MS', help: 'minimum support (3)' },
  { key: 'MRD', help: 'relative deficiency allowed in redundancy elimination (5%)', step: 0.01 },
  { key: 'MAD', help: 'absolute deficiency allowed (1)' },
  { key: 'MW', help: 'maximum window size in rules (1100)' },
  { key: 'N', help: 'validation count (100)' },
  { key: 'epsilon', label: 'ε', help: 'refutation threshold (5%; 10% in the news-site runs)', step: 0.01 },
  { key: 'maxIterations', label: 'Canonisation iterations', help: 'maximum (10)' },
  {
    key: 'likelySimilarJaccard',
    label: 'LikelySimilar Jaccard',
    help: 'estimated resemblance at which two sketches are likely similar (not in the paper)',
    step: 0.05,
  },
  {
    key: 'dustJaccard',
    label: 'Validation Jaccard',
    help: 'resemblance at which u and R(u) count as similar (not in the paper)',
    step: 0.05,
  },
  {
    key: 'site',
    label: 'Site',
    help: 'rules are mined per site: registrable domain (sub-domains and ports together), host, or the whole list',
    options: ['domain', 'host', 'list'],
  },
  {
    key: 'validationShare',
    label: 'Held-out share',
    help: 'share of the URLs held out for validation when the list is split (the paper used other logs)',
    step: 0.05,
  },
  {
    key: 'splitMinUrls',
    label: 'Split from',
    help: 'lists with fewer unique URLs are not split: detection and validation read the whole list',
    step: 1000,
  },
  { key: 'seed', label: 'Seed', help: 'of the split and of validation sampling' },
  { key: 'paramRules', label: 'Parameter rules', help: 'drop a parameter / set it to a default (§5)' },
  {
    key: 'pairRules',
    label: 'Rules from pairs',
    help: 'also derive rules from URLs with identical documents (dir/index.html ↔ dir/, two-place rules) — not in the paper',
  },
  {
    key: 'extensions',
    label: 'Steps beyond the paper',
    help: 'path parameters, wildcard rules merging likely rules, rules carried to other sites, the origin wildcard {o}, redundant valid rules folded — off (with rules from pairs off) is the paper’s DustBuster',
  },
  {
    key: 'pairGroupMax',
    label: 'Pairs: group max',
    help: 'larger groups of identical documents give no pairs',
  },
  {
    key: 'missingIsNegative',
    label: 'Missing R(u) is negative',
    help: 'Fig. 3 counts a failed fetch of R(u) against the rule; a URL the dataset lacks is skipped unless set',
  },
];

export function sameDustParams(a: DustParams, b: Partial<DustParams>): boolean {
  return FIELDS.every((f) => (b[f.key] ?? DUST_DEFAULTS[f.key]) === a[f.key]);
}

export function DustParamsPanel() {
  const params = useDust((s) => s.params);
  const setParams = useDust((s) => s.setParams);
  const run = useDust((s) => s.run);
  const stale = run !== null && !sameDustParams(params, run.params);
  const put = (k: Key, v: string | boolean) =>
    setParams({ ...params, [k]: typeof DUST_DEFAULTS[k] === 'number' ? Number(v) : v });
  return (
    <ParamsDetails
      title="DustBuster parameters"
      stale={stale}
      staleNote="changed: mine again to apply"
      note="Hover a name for its meaning and the paper's value."
      onDefaults={() => setParams({ ...DUST_DEFAULTS })}
    >
      <p className="meta">
        <button type="button" onClick={() => setParams({ ...PAPER_SETTING })}>
          The paper’s setting
        </button>{' '}
        DustBuster as Bar-Yossef et al. describe it: §6’s defaults, none of this tool’s steps (then mine
        again).
      </p>
      {FIELDS.map((f) => {
        const v = params[f.key];
        return (
          <ParamField
            key={f.key}
            label={f.label ?? f.key}
            help={f.help}
            kind={typeof v === 'boolean' ? 'check' : f.options ? 'select' : 'number'}
            value={v}
            options={f.options}
            step={f.step}
            onChange={(x) => put(f.key, x)}
          />
        );
      })}
    </ParamsDetails>
  );
}

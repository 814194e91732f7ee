import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDS } from '../../src/core/candidates/methods';
import { formatView, parseView } from '../../src/state/url-sync';

describe('view in the URL', () => {
  it('round-trips dataset, method, clustering and thresholds', () => {
    const v = {
      dataset: 3,
      method: 'minhash' as const,
      mode: 'star' as const,
      cluster: 4,
      rule: 7,
      pane: 'dust' as const,
      thresholds: { ...DEFAULT_THRESHOLDS, C: 0.2, D: 0.03, jaccard: 0.7, fcLengthCheck: false },
    };
    const back = parseView(formatView(v));
    expect(back).toEqual({
      dataset: 3,
      method: 'minhash',
      mode: 'star',
      cluster: 4,
      rule: 7,
      pane: 'dust',
      thresholds: { C: 0.2, D: 0.03, jaccard: 0.7, fcLengthCheck: false },
    });
  });

  it('ignores unknown methods and out-of-range values', () => {
    expect(parseView('?m=nope&D=7&C=0.5&h=x')).toEqual({
      dataset: null,
      method: null,
      mode: null,
      thresholds: { C: 0.5 },
    });
  });

  it('keeps the enlarged pane: each pane id round-trips, none is left out, unknown ones are ignored', () => {
    const base = {
      dataset: 1,
      method: 'rp-hm' as const,
      mode: 'components' as const,
      thresholds: DEFAULT_THRESHOLDS,
    };
    for (const pane of ['clusters', 'pr', 'dust'] as const) {
      const search = formatView({ ...base, pane });
      expect(new URLSearchParams(search).get('pane')).toBe(pane);
      expect(parseView(search).pane).toBe(pane);
    }
    expect(formatView({ ...base, pane: null })).not.toContain('pane=');
    expect(parseView(formatView(base))).not.toHaveProperty('pane');
    expect(parseView('?ds=1&pane=sidebar')).not.toHaveProperty('pane');
  });
});

import { describe, expect, it } from 'vitest';
import { runDustBuster, type DustRecord } from '../../src/core/dust';
import { summariseValidation, urlOnlyNote } from '../../src/ui/dust/validation-note';

/** story?id=N and story_N for N items: an access log (sizes only) or a crawl.log (sizes and digests). */
function urlList(n: number, digests: boolean): DustRecord[] {
  const out: DustRecord[] = [];
  for (let i = 0; i < n; i++) {
    const size = 1000 + 37 * i;
    const digest = digests ? `sha1:ITEM${i}` : undefined;
    out.push({ url: `http://s.test/story?id=${i}`, status: 200, sizeMin: size, sizeMax: size, digest });
    out.push({ url: `http://s.test/story_${i}`, status: 200, sizeMin: size, sizeMax: size, digest });
  }
  return out;
}

function facts(records: DustRecord[]) {
  return {
    urls: records.length,
    withDigest: records.filter((r) => r.digest).length,
    withError: records.filter((r) => (r.status ?? 0) >= 400).length,
    missingIsNegative: false,
  };
}

describe('the DUST pane’s words for a dataset without page contents', () => {
  it('an access log (sizes only): rules detected, none validated, every one likely, and it says so', () => {
    const records = urlList(40, false);
    const { rules } = runDustBuster(records);
    const s = summariseValidation(rules);
    expect(rules.length).toBeGreaterThan(0);
    expect(s.valid + s.refuted).toBe(0);
    const text = urlOnlyNote(s, facts(records)).join(' ');
    expect(text).toContain(`the ${rules.length} rule`);
    expect(text).toMatch(rules.length === 1 ? /It could not be validated/ : /None could be validated/);
    expect(text).toMatch(/every rule stays likely/);
    expect(text).not.toMatch(/\d+ valid/);
  });

  it('a crawl.log with digests: the rules that were validated are named as such, with the evidence', () => {
    const records = urlList(40, true);
    const { rules } = runDustBuster(records);
    const s = summariseValidation(rules);
    // The statuses the table shows: some rules valid through equal digests.
    expect(s.valid).toBe(rules.filter((r) => r.status === 'valid').length);
    expect(s.valid).toBeGreaterThan(0);
    const text = urlOnlyNote(s, facts(records)).join(' ');
    expect(text).not.toMatch(/could not be validated|None could be validated/);
    expect(text).toContain(`${s.valid} valid (their sampled URL pairs have the same digest)`);
    expect(text).toContain(`${records.length} of ${records.length} URLs carry a content digest`);
    if (s.likely > 0) expect(text).toMatch(new RegExp(`${s.likely} rules? stays? likely: `));
  });

  it('counts likely rules by cause and refuted ones with what the rewritten URL returned', () => {
    const base = { reason: '', status: 'likely' } as const;
    const rules = [
      { ...base, pending: 'refines-valid' },
      { ...base, pending: 'refines-valid' },
      { ...base, pending: 'target-missing' },
      { ...base, status: 'valid' as const },
      { ...base, status: 'refuted' as const },
    ] as unknown as Parameters<typeof summariseValidation>[0];
    const s = summariseValidation(rules);
    expect(s).toMatchObject({ valid: 1, refuted: 1, likely: 3 });
    expect(s.likelyCauses[0]).toEqual(['refine a valid rule, so they were not tried (Fig. 4)', 2]);
    const text = urlOnlyNote(s, { urls: 10, withDigest: 5, withError: 2, missingIsNegative: false }).join(
      ' ',
    );
    expect(text).toContain('1 refuted (the rewritten URL had an error status or a different digest)');
    expect(text).toContain('3 rules stay likely: 2 refine a valid rule');
  });
});

describe('no rule at all', () => {
  it('says no rule was found rather than counting zero rules', () => {
    const text = urlOnlyNote(summariseValidation([]), {
      urls: 3,
      withDigest: 0,
      withError: 0,
      missingIsNegative: false,
    });
    expect(text).toHaveLength(1);
    expect(text[0]).toMatch(/no rule was found/);
  });
});

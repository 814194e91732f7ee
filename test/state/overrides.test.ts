// @vitest-environment jsdom
/**
 * The analyst's decisions as the store keeps them: who decided (the reviewer's name, kept in this
 * browser), stored per dataset so a reload reads them back, and one undo step per decision.
 */
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { db } from '../../src/db/schema';
import { REVIEWER_MAX, useOverrides } from '../../src/state/overrides';

const pair = (a: number, b: number, kind: 'must' | 'cannot' = 'cannot') => ({
  a,
  b,
  kind,
  urlA: `http://s.test/${a}`,
  urlB: `http://s.test/${b}`,
  how: 'pair' as const,
});

beforeEach(async () => {
  await db().overrides.clear();
  useOverrides.getState().setReviewer('');
  await useOverrides.getState().load(7);
});

describe('decisions record who made them', () => {
  it('records the reviewer with each decision, keeps it across a reload, and forgets nothing on undo', async () => {
    const s = useOverrides.getState();
    s.setReviewer('Ana Lyst');
    await s.decide([pair(5, 2)]);
    s.setReviewer('');
    await s.decide([pair(3, 4, 'must')]);
    // Read back as a reload would.
    await useOverrides.getState().load(7);
    const rows = [...useOverrides.getState().rows.values()].sort((x, y) => x.a - y.a);
    expect(rows.map((r) => [r.a, r.b, r.kind, r.by ?? null])).toEqual([
      [2, 5, 'cannot', 'Ana Lyst'],
      [3, 4, 'must', null],
    ]);
    // The pair's URLs follow its seqs' order.
    expect(rows[0].urlA).toBe('http://s.test/2');
  });

  it('keeps the name in this browser, cut to its maximum', async () => {
    useOverrides.getState().setReviewer('x'.repeat(REVIEWER_MAX + 40));
    expect(useOverrides.getState().reviewer.length).toBe(REVIEWER_MAX);
    expect(localStorage.getItem('dedup-workbench.reviewer')?.length).toBe(REVIEWER_MAX);
  });

  it('undoes the last step only, in the store and in the database', async () => {
    const s = useOverrides.getState();
    s.setReviewer('R');
    await s.decide([pair(1, 2)]);
    await s.decide([pair(1, 2, 'must'), pair(8, 9)]);
    await useOverrides.getState().undo();
    const stored = await db().overrides.where('datasetId').equals(7).toArray();
    expect(stored.map((r) => [r.a, r.b, r.kind, r.by])).toEqual([[1, 2, 'cannot', 'R']]);
    expect([...useOverrides.getState().rows.keys()]).toEqual(['1:2']);
  });
});

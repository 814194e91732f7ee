import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/core/random';
import type { LabelValue } from '../../src/core/eval/estimators';
import { db, type StoredLabel } from '../../src/db/schema';
import { useLabels } from '../../src/state/labels';

const VALUES: LabelValue[] = ['dup', 'not', 'unsure'];
const row = (a: number, b: number, label: LabelValue, origin?: StoredLabel['origin']): StoredLabel => ({
  datasetId: 3,
  a,
  b,
  label,
  strategy: 'random',
  pi: 0.5,
  at: '2026-01-01T00:00:00.000Z',
  ...(origin ? { origin } : {}),
});
const snapshot = () =>
  [...useLabels.getState().labels.values()].map((r) => `${r.a}-${r.b}:${r.label}:${r.origin ?? ''}`).sort();

beforeEach(async () => {
  await db().labels.clear();
  await useLabels.getState().load(3);
});

describe('importing labels: what changed, the queue kept, one undo', () => {
  for (let seed = 1; seed <= 12; seed++) {
    it(`counts new, changed and unchanged against a reference, and undoes as one step, seed ${seed}`, async () => {
      const rng = seededRandom(seed * 104729);
      const pick = () => VALUES[Math.floor(rng() * 3)];
      const have = new Map<string, LabelValue>();
      const existing: StoredLabel[] = [];
      for (let i = 0; i < 5 + Math.floor(rng() * 20); i++) {
        const a = Math.floor(rng() * 30);
        const b = a + 1 + Math.floor(rng() * 30);
        if (have.has(`${a}-${b}`)) continue;
        have.set(`${a}-${b}`, pick());
        existing.push(row(a, b, have.get(`${a}-${b}`)!));
      }
      await db().labels.bulkPut(existing);
      await useLabels.getState().load(3);
      useLabels.setState({
        queue: [
          { pair: 0, strategy: 'random', pi: 1 },
          { pair: 1, strategy: 'random', pi: 1 },
        ],
        position: 1,
      });
      const before = snapshot();
      // A file: some pairs already labelled (same or other label), some new, written either way round.
      const file: StoredLabel[] = [];
      const want = { added: 0, changed: 0, unchanged: 0 };
      const seen = new Map(have);
      for (let i = 0; i < 1 + Math.floor(rng() * 25); i++) {
        const a = Math.floor(rng() * 30);
        const b = a + 1 + Math.floor(rng() * 30);
        const v = pick();
        const had = seen.get(`${a}-${b}`);
        if (had === v) want.unchanged++;
        else if (had) want.changed++;
        else want.added++;
        seen.set(`${a}-${b}`, v);
        file.push(rng() < 0.5 ? row(a, b, v, 'splink') : row(b, a, v, 'splink'));
      }
      const got = await useLabels.getState().importLabels(file);
      expect(got, `seed ${seed}`).toEqual(want);
      // The state and the database agree, and hold the file's label for every pair it names.
      const stored = (await db().labels.where('datasetId').equals(3).toArray())
        .map((r) => `${r.a}-${r.b}:${r.label}:${r.origin ?? ''}`)
        .sort();
      expect(stored, `seed ${seed}`).toEqual(snapshot());
      for (const [k, v] of seen)
        expect(useLabels.getState().labels.get(k.replace('-', ':'))?.label ?? v, `seed ${seed}`).toBe(v);
      // The queue stays where it was.
      expect(useLabels.getState().position, `seed ${seed}`).toBe(1);
      expect(useLabels.getState().queue.length, `seed ${seed}`).toBe(2);
      // One undo takes the whole import back.
      if (want.added + want.changed > 0) {
        await useLabels.getState().undo();
        expect(snapshot(), `seed ${seed}`).toEqual(before);
        const back = (await db().labels.where('datasetId').equals(3).toArray())
          .map((r) => `${r.a}-${r.b}:${r.label}:${r.origin ?? ''}`)
          .sort();
        expect(back, `seed ${seed}`).toEqual(before);
      } else expect(useLabels.getState().history.length, `seed ${seed}`).toBe(0);
    });
  }
});

// @vitest-environment jsdom
/**
 * The open cluster's decisions (ClusterDecisions): the merge list finds any cluster by a member's URL,
 * not only the largest ones, and Merge stores a same-page decision between the two clusters' centres.
 * Random cluster sets (seeded, the seed in each test's name).
 */
import 'fake-indexeddb/auto';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../../src/core/clusters/clusters';
import { seededRandom } from '../../src/core/random';
import { db, type StoredAnalysis } from '../../src/db/schema';
import { useOverrides } from '../../src/state/overrides';
import { ClusterDecisions } from '../../src/ui/clusters/ClusterDecisions';

afterEach(cleanup);
beforeEach(async () => {
  await db().overrides.clear();
  useOverrides.getState().setReviewer('');
  await useOverrides.getState().load(4);
});

describe('merging with a cluster found by URL', () => {
  for (const seed of [1, 2, 3]) {
    it(`offers every cluster whose member URL matches, beyond the largest 200, seed ${seed}`, async () => {
      const rng = seededRandom(seed * 6007);
      // 300–500 clusters of 2–5 pages, largest first; pages numbered in order.
      const clusters: Cluster[] = [];
      let page = 0;
      const n = 300 + Math.floor(rng() * 200);
      for (let k = 0; k < n; k++) {
        const size = 2 + Math.floor(rng() * 4);
        const members = Array.from({ length: size }, () => page++);
        clusters.push({ members, centre: members[0] });
      }
      clusters.sort((x, y) => y.members.length - x.members.length);
      const analysis = {
        seqs: Array.from({ length: page }, (_, i) => 1000 + i),
      } as unknown as StoredAnalysis;
      const urlOf = (i: number) => `http://s.test/p/${i}.html`;
      // A cluster far down the list: past the 200 the list shows unfiltered.
      const far = clusters[n - 1 - Math.floor(rng() * 50)];
      const open = clusters[0];
      render(
        <ClusterDecisions
          analysis={analysis}
          cluster={open}
          clusters={clusters}
          pair={[open.members[0], open.members[1]]}
          weakest={null}
          urlOf={urlOf}
        />,
      );
      const select = screen.getByRole('combobox', { name: 'Merge with cluster' }) as HTMLSelectElement;
      const values = () => [...select.options].map((o) => o.value).filter((v) => v !== '');
      expect(values().length).toBe(200);
      expect(values()).not.toContain(String(1000 + far.centre));
      // A member's URL, not the centre's: the cluster is found by any of its pages.
      const member = far.members[far.members.length - 1];
      fireEvent.change(screen.getByRole('searchbox', { name: /Find a cluster/ }), {
        target: { value: `/p/${member}.html` },
      });
      // Exactly the clusters with a member whose URL holds the text (a reference by brute force).
      const expected = clusters
        .filter((c) => c !== open && c.members.some((m) => urlOf(m).includes(`/p/${member}.html`)))
        .map((c) => String(1000 + c.centre));
      expect(values()).toEqual(expected);
      fireEvent.change(select, { target: { value: String(1000 + far.centre) } });
      fireEvent.click(screen.getByRole('button', { name: 'Merge' }));
      await waitFor(() => expect(useOverrides.getState().rows.size).toBe(1));
      const [row] = [...useOverrides.getState().rows.values()];
      const ends = [1000 + open.centre, 1000 + far.centre].sort((x, y) => x - y);
      expect([row.a, row.b, row.kind, row.how]).toEqual([...ends, 'must', 'merge']);
    });
  }
});

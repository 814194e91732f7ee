import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DEFAULT_METHOD, DEFAULT_THRESHOLDS } from '../../../src/core/candidates/methods';
import { inspectCluster } from '../../../src/core/clusters/inspect';
import { clusterView, DEFAULT_CLUSTERING } from '../../../src/core/clusters/view';
import { jaccard } from '../../../src/core/signatures/shingles';
import { sampleCorpus } from '../../bench/cluster-quality';

const SAMPLE = fileURLToPath(new URL('../../../sample/sample.warc.gz', import.meta.url));
const TRUTH = fileURLToPath(new URL('../../../sample/truth.json', import.meta.url));

describe('the default operating point on the sample crawl', () => {
  it('no two members of the 5 largest default clusters have exact Jaccard < 0.5, and none is chained', async () => {
    // Every comparable page, as the workbench reads the sample.
    const { result: r, shingles } = await sampleCorpus(SAMPLE, TRUTH);
    const view = clusterView(r, DEFAULT_METHOD, DEFAULT_THRESHOLDS, DEFAULT_CLUSTERING);
    expect(view.clusters.length).toBeGreaterThan(20);
    let least = 1;
    for (const c of view.clusters.slice(0, 5)) {
      for (let x = 0; x < c.members.length; x++)
        for (let y = x + 1; y < c.members.length; y++)
          least = Math.min(least, jaccard(shingles[c.members[x]], shingles[c.members[y]]));
      expect(inspectCluster(r.pairs, c, view.mask).chained).toBe(false);
    }
    expect(least).toBeGreaterThanOrEqual(0.5);
  }, 60_000);
});

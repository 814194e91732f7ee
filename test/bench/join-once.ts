/**
 * One join in a process of its own, for `bench:batch --worst`: its peak RSS is then the join's
 * (DuckDB, the driver and Node itself), not the map step's. Prints one JSON line.
 *
 *   tsx test/bench/join-once.ts OUT PROFILE.json
 */
import { readFileSync } from 'node:fs';
import { runJoin } from '../../src/cli/batch-join';
import { parseProfile } from '../../src/core/profile';

const [outDir, profilePath] = process.argv.slice(2);
const cpu = process.cpuUsage();
const j = await runJoin({ profile: parseProfile(readFileSync(profilePath, 'utf8')), outDir, log: () => {} });
const c = process.cpuUsage(cpu);
const all = j.summary.find((r) => r.host === null)!;
console.log(
  JSON.stringify({
    elapsedMs: j.elapsedMs,
    cpuS: (c.user + c.system) / 1e6,
    maxRssKb: process.resourceUsage().maxRSS,
    candidates: j.candidates,
    edges: j.edges,
    anchored: j.anchored.buckets,
    pages: all.pages,
    pagesInClusters: all.pages_in_clusters,
    clusters: all.clusters,
    timings: Object.fromEntries(Object.entries(j.timings).map(([k, v]) => [k, Math.round(v)])),
  }),
);

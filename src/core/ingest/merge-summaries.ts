import type { IngestSummary } from '../types';
import { DIGEST_WARNING_KINDS, digestWarnings, mergeDigestReports } from './digest-report';

/**
 * Sum the summaries of the parts of one dataset (files of a crawl, or parallel parts of one file):
 * counts added, hosts united, the first fault kept, problems up to 100 (each names its file).
 */
export function mergeSummaries(
  base: Pick<IngestSummary, 'fileName' | 'format' | 'compressed' | 'bytes'>,
  parts: IngestSummary[],
  elapsedMs: number,
  /** Parts read at the same time: storage time is the longest part's, not the sum. */
  how: { parallel?: boolean } = {},
): IngestSummary {
  const add = (into: Record<string, number>, from: Record<string, number> | undefined) => {
    for (const [k, v] of Object.entries(from ?? {})) into[k] = (into[k] ?? 0) + v;
  };
  const s: IngestSummary = {
    ...base,
    bytesDecoded: 0,
    recordsByType: {},
    pages: 0,
    hosts: 0,
    hostNames: [],
    skipped: {},
    error: null,
    warnings: [],
    warningCount: 0,
    elapsedMs,
    sinkMs: 0,
    statusCounts: {},
  };
  const hosts = new Set<string>();
  const digestKinds = new Set<string>(Object.values(DIGEST_WARNING_KINDS));
  for (const p of parts) {
    s.bytesDecoded += p.bytesDecoded;
    add(s.recordsByType, p.recordsByType);
    add(s.skipped, p.skipped);
    add(s.statusCounts!, p.statusCounts);
    s.pages += p.pages;
    for (const h of p.hostNames) hosts.add(h);
    // Digest mismatches are counted over the whole dataset below, one problem per field.
    const own = p.warnings.filter((w) => !w.kind || !digestKinds.has(w.kind));
    s.warnings.push(...own);
    s.warningCount += p.warningCount - (p.warnings.length - own.length);
    s.sinkMs = how.parallel ? Math.max(s.sinkMs, p.sinkMs) : s.sinkMs + p.sinkMs;
    s.error ??= p.error;
  }
  s.hosts = hosts.size;
  s.hostNames = [...hosts];
  const digests = mergeDigestReports(parts.map((p) => p.digests));
  const digestProblems = digestWarnings(digests);
  s.warnings = [...s.warnings.slice(0, 100 - digestProblems.length), ...digestProblems];
  s.warningCount += digestProblems.length;
  if (digests) s.digests = digests;
  if (how.parallel) s.parts = parts.length;
  return s;
}

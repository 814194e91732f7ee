import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { rangeOfUnit, readUnitInOrder, type UnitReader } from '../core/ingest/crawl-units';
import { mergeSummaries } from '../core/ingest/merge-summaries';
import { bodyCacheShare } from '../core/ingest/extraction-cache';
import { planSplits } from '../core/ingest/split';
import { revisitFields } from '../core/ingest/warc-pages';
import type { IngestedPage, IngestSummary } from '../core/types';
import { IngestError } from '../core/ingest/errors';
import { RevisitTies, sumProgress, type Unresolved } from '../core/ingest/parts';
import { readPart, type PartMessage, type PartTask } from './part-worker';

const WORKER_FILE = new URL('./part-worker.ts', import.meta.url).pathname;

/** Files smaller than this are read in one go: a thread starts in ~0.5 s under tsx (loading the core), more than parts save on a small file. */
const PARALLEL_MIN_BYTES = 64 << 20;

/** Where a unit's bytes are on disk: parts are read by path in their threads. */
export type PathOf = (unit: Parameters<UnitReader>[0]) => string | null;

/**
 * A UnitReader (core/ingest/crawl-units.ts) that reads one large WARC(.gz) or ARC.gz in `parts` worker
 * threads, cut at verified record starts on segment boundaries (core/ingest/split.ts, as the browser's
 * ingest worker cuts it), and hands its pages to the sink in file order. Each part numbers its pages by
 * segment as a read in order does (core/ingest/parts.ts); a part's pages wait until the parts before it
 * are done, and a revisit whose original lies in an earlier part is tied then (RevisitTies, by
 * normalised URL and payload digest, as the browser does for its parts; a read in order also matches
 * WARC-Refers-To record ids, which cross no part boundary here). Anything else — small files, WACZ
 * members, whole-file gzip, other formats — is read in order.
 */
export function partsReader(
  pathOf: PathOf,
  {
    parts = Math.min(4, availableParallelism()),
    minBytes = PARALLEL_MIN_BYTES,
    onParts,
  }: {
    parts?: number;
    minBytes?: number;
    /** Told the part boundaries of each file read in parts. */
    onParts?: (name: string, bounds: number[]) => void;
  } = {},
): UnitReader {
  return async (unit, ctx, sink) => {
    const path = pathOf(unit);
    if (parts < 2 || path === null || unit.size < minBytes) return readUnitInOrder(unit, ctx, sink);
    // A file, or a WACZ's stored WARC (a range of the file), is cut in parts; a deflated member is not.
    const range = await rangeOfUnit(unit);
    if (!range) return readUnitInOrder(unit, ctx, sink);
    const plan = await planSplits(range.source, parts, ctx.segmentBytes);
    if (!plan) return readUnitInOrder(unit, ctx, sink);
    await ctx.onFormat(plan.format, plan.compressed);
    onParts?.(unit.name, plan.bounds);
    const t0 = performance.now();
    const n = plan.bounds.length - 1;
    const held: { batch: IngestedPage[]; revisits: Unresolved[] }[][] = Array.from({ length: n }, () => []);
    const done: (IngestSummary | null)[] = new Array(n).fill(null);
    const failures: string[] = [];
    let next = 0; // the part whose pages go to the sink now
    const ties = new RevisitTies<IngestedPage['page']>();
    let flowing: Promise<void> = Promise.resolve();

    /** Tie a part's revisits to earlier parts' pages, tag its batch, and hand it on. */
    const give = async ({ batch, revisits }: { batch: IngestedPage[]; revisits: Unresolved[] }) => {
      // A revisit is reported while its page is parsed, so with its batch or an earlier one.
      ties.leave(revisits);
      for (const p of batch) {
        const orig = ties.see(p.page);
        if (orig) Object.assign(p.page, revisitFields(orig, p.page.mime), { note: '' });
      }
      ctx.tag(batch);
      await sink(batch);
    };
    /** Part k's pages read so far are `held[k]`; pass on what may go now, in order. */
    const flow = () => {
      flowing = flowing.then(async () => {
        while (next < n) {
          while (held[next].length > 0) await give(held[next].shift()!);
          if (!done[next]) return;
          next++;
        }
      });
      return flowing;
    };

    const progress: (PartMessage & { type: 'progress' })['progress'][] = new Array(n);
    const workers: Worker[] = [];
    const finished = plan.bounds.slice(0, -1).map(
      (start, k) =>
        new Promise<void>((resolve) => {
          const task: PartTask = {
            path,
            fileOffset: range.start,
            bodyCacheChars: bodyCacheShare(n),
            fileName: unit.name,
            start,
            end: plan.bounds[k + 1],
            seqBase: ctx.seqBase,
            ...(ctx.segmentBytes ? { segmentBytes: ctx.segmentBytes } : {}),
            baseUrl: ctx.baseUrl,
          };
          const onMessage = (m: PartMessage) => {
            if (m.type === 'batch') {
              held[k].push(m);
              void flow();
            } else if (m.type === 'progress') {
              progress[k] = m.progress;
              ctx.onProgress(sumProgress(progress, unit.size, performance.now() - t0));
            } else if (m.type === 'done') {
              done[k] = m.summary;
              void flow();
              resolve();
            } else {
              failures.push(m.message);
              done[k] = null;
              resolve();
            }
          };
          // The first part is read here, while the others' threads start (~0.5 s each under tsx).
          if (k === 0) {
            void readPart(task, onMessage);
            return;
          }
          const w = startPartWorker(task);
          workers.push(w);
          w.on('message', onMessage);
          w.on('error', (e: Error) => {
            failures.push(e.message);
            resolve();
          });
          w.on('exit', () => resolve());
        }),
    );
    await Promise.all(finished);
    await Promise.all(workers.map((w) => w.terminate()));
    if (failures.length > 0)
      throw new IngestError(unit.name, `a part of the file could not be read: ${failures[0]}`);
    // Every part is done: hand on whatever is still held, in order.
    await flow();
    const summary = mergeSummaries(
      { fileName: unit.name, format: plan.format, compressed: plan.compressed, bytes: unit.size },
      done as IngestSummary[],
      performance.now() - t0,
      { parallel: true },
    );
    return summary;
  };
}

/** A part's thread. The CLI runs under tsx, whose loader a worker does not inherit: it registers it. */
function startPartWorker(task: PartTask): Worker {
  // tsx's loader by its absolute URL: a worker's eval code resolves bare names from the working
  // directory, which a command run from the crawl's folder (INIT_CWD, input-paths.ts) moved there.
  const code = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((t) => { t.register(); return import(${JSON.stringify(pathToFileURL(WORKER_FILE).href)}); })`;
  return new Worker(code, { eval: true, workerData: { partTask: task } });
}

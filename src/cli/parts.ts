import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { mergeSummaries, rangeOfUnit, readUnitInOrder, type UnitReader } from '../core/ingest/many-files';
import { bodyCacheShare } from '../core/ingest/extraction-cache';
import { planSplits } from '../core/ingest/split';
import { revisitFields } from '../core/ingest/warc';
import type { IngestedPage, IngestSummary } from '../core/types';
import { normaliseUrl } from '../core/url/normalize';
import { IngestError } from '../core/ingest/errors';
import { readPart, type PartMessage, type PartTask, type Unresolved } from './part-worker';

const WORKER_FILE = new URL('./part-worker.ts', import.meta.url).pathname;

/** Files smaller than this are read in one go: a thread starts in ~0.5 s under tsx (loading the core), more than parts save on a small file. */
const PARALLEL_MIN_BYTES = 64 << 20;
/** Seq range of each part while it is read (renumbered on the way to the sink). */
const PART_STRIDE = 2 ** 32;

/** Where a unit's bytes are on disk: parts are read by path in their threads. */
export type PathOf = (unit: Parameters<UnitReader>[0]) => string | null;

/**
 * A UnitReader (core/ingest/many-files.ts) that reads one large WARC(.gz) or ARC.gz in `parts` worker
 * threads, cut at verified record starts (core/ingest/split.ts, as the browser's ingest worker cuts it),
 * and hands its pages to the sink as one read in order would: in file order, numbered from the unit's
 * seqBase without gaps. A part's pages wait until the parts before it are done; a revisit whose original
 * lies in an earlier part is resolved then, by normalised URL and payload digest (as the browser does
 * for its parts; a read in order also matches WARC-Refers-To record ids, which cross no part boundary
 * here). Anything else — small files, WACZ members, whole-file gzip, other formats — is read in order.
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
    const plan = await planSplits(range.source, parts);
    if (!plan) return readUnitInOrder(unit, ctx, sink);
    await ctx.onFormat(plan.format, plan.compressed);
    onParts?.(unit.name, plan.bounds);
    const t0 = performance.now();
    const n = plan.bounds.length - 1;
    const held: { batch: IngestedPage[]; revisits: Unresolved[] }[][] = Array.from({ length: n }, () => []);
    /** Seq shift of each part (local seq → dataset seq), known when its first page is handed on. */
    const shift: number[] = new Array(n).fill(NaN);
    const done: (IngestSummary | null)[] = new Array(n).fill(null);
    const failures: string[] = [];
    /** Pages handed on so far: the next page's seq is ctx.seqBase + given. */
    let given = 0;
    let next = 0; // the part whose pages go to the sink now
    const originals = new Map<string, IngestedPage['page']>();
    const unresolved = new Map<number, Unresolved>();
    let flowing: Promise<void> = Promise.resolve();

    /** Renumber a part's batch, resolve revisits from earlier parts, tag it, and hand it on. */
    const give = async (
      k: number,
      { batch, revisits }: { batch: IngestedPage[]; revisits: Unresolved[] },
    ) => {
      if (Number.isNaN(shift[k])) shift[k] = ctx.seqBase + given - k * PART_STRIDE;
      const d = shift[k];
      // A revisit is reported while its page is parsed, so with its batch or an earlier one.
      for (const r of revisits) unresolved.set(r.seq, r);
      for (const p of batch) {
        const page = p.page;
        const r = unresolved.get(page.seq);
        unresolved.delete(page.seq);
        page.seq += d;
        p.content.seq = page.seq;
        if (page.revisitOf >= 0) page.revisitOf += d;
        else if (r) {
          const orig = originals.get(normaliseUrl(r.uri).href + ' ' + r.digest);
          if (orig) Object.assign(page, revisitFields(orig, page.mime), { note: '' });
        }
        if (page.recordType !== 'revisit' && page.digest)
          originals.set(page.normUrl + ' ' + page.digest, page);
      }
      given += batch.length;
      ctx.tag(batch);
      await sink(batch);
    };
    /** Part k's pages read so far are `held[k]`; pass on what may go now, in order. */
    const flow = () => {
      flowing = flowing.then(async () => {
        while (next < n) {
          while (held[next].length > 0) await give(next, held[next].shift()!);
          if (!done[next]) return;
          next++;
        }
      });
      return flowing;
    };

    const progress = new Array<{ bytesRead: number; bytesDecoded: number; records: number; pages: number }>(
      n,
    );
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
            seqBase: k * PART_STRIDE,
            baseUrl: ctx.baseUrl,
          };
          const onMessage = (m: PartMessage) => {
            if (m.type === 'batch') {
              held[k].push(m);
              void flow();
            } else if (m.type === 'progress') {
              progress[k] = m.progress;
              const sum = (f: (x: (typeof progress)[number]) => number) =>
                progress.reduce((a, x) => a + (x ? f(x) : 0), 0);
              ctx.onProgress({
                bytesRead: sum((x) => x.bytesRead),
                totalBytes: unit.size,
                bytesDecoded: sum((x) => x.bytesDecoded),
                records: sum((x) => x.records),
                pages: sum((x) => x.pages),
                elapsedMs: performance.now() - t0,
              });
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
  const code = `import('tsx/esm/api').then((t) => { t.register(); return import(${JSON.stringify(pathToFileURL(WORKER_FILE).href)}); })`;
  return new Worker(code, { eval: true, workerData: { partTask: task } });
}

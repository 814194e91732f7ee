// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { create } from 'zustand';
import type { JobOutcome } from '../../src/core/jobs';
import { runJobInStore, type CancelSlot } from '../../src/state/jobs';
import type { WorkerHandle } from '../../src/workers/client';
import type { JobApi } from '../../src/workers/expose-job';

interface S {
  busy: boolean;
  progress: number | null;
  error: string | null;
  done: string | null;
}

/** A worker stand-in: runs `body` in this thread, records progress and whether it was terminated. */
function fakeWorker(
  body: (onProgress: (p: number) => void, cancelled: () => boolean) => Promise<JobOutcome<{ v: string }>>,
) {
  const seen = { progress: [] as (number | null)[], terminated: false, cancelled: false };
  const api: JobApi<{ n: number }, number, JobOutcome<{ v: string }>> = {
    run: (_args, onProgress) => body(onProgress, () => seen.cancelled),
    cancel: () => {
      seen.cancelled = true;
    },
  };
  const start = (): WorkerHandle<typeof api> => ({
    api: api as unknown as WorkerHandle<typeof api>['api'],
    terminate: () => {
      seen.terminated = true;
    },
  });
  return { start, seen };
}

function store() {
  return create<S>(() => ({ busy: false, progress: null, error: null, done: null }));
}

const run = (
  useS: ReturnType<typeof store>,
  start: ReturnType<typeof fakeWorker>['start'],
  slot: CancelSlot = { cancel: null },
) =>
  runJobInStore(useS.setState, useS.getState, {
    running: 'busy',
    slot,
    start,
    args: { n: 1 },
    lock: 'test-lock',
    words: { doing: 'mining test rules', elsewhere: 'they appear here when it is done', worker: 'test' },
    onDone: (r) => useS.setState({ done: r.v }),
  });

describe('runJobInStore', () => {
  it('sets the flag while running, shows progress, calls onDone, then leaves the store idle', async () => {
    const useS = store();
    const flags: boolean[] = [];
    const progress: (number | null)[] = [];
    useS.subscribe((s) => {
      flags.push(s.busy);
      progress.push(s.progress);
    });
    const w = fakeWorker(async (onProgress) => {
      onProgress(1);
      onProgress(2);
      return { kind: 'done', v: 'ok' };
    });
    await run(useS, w.start);
    expect(useS.getState()).toEqual({ busy: false, progress: null, error: null, done: 'ok' });
    expect(flags[0]).toBe(true);
    expect(progress).toContain(2);
    expect(w.seen.terminated).toBe(true);
  });

  it('says what failed or crashed, in the store', async () => {
    const useS = store();
    await run(useS, fakeWorker(async () => ({ kind: 'failed', message: 'disk full' })).start);
    expect(useS.getState().error).toBe('Mining test rules failed: disk full');
    await run(
      useS,
      fakeWorker(async () => {
        throw new Error('out of memory');
      }).start,
    );
    expect(useS.getState()).toMatchObject({ busy: false, error: 'The test worker failed: out of memory' });
  });

  it('runs one job at a time, and cancel reaches the running one', async () => {
    const useS = store();
    const slot: CancelSlot = { cancel: null };
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const w = fakeWorker(async (_p, cancelled) => {
      await gate;
      return cancelled() ? { kind: 'cancelled' } : { kind: 'done', v: 'late' };
    });
    const first = run(useS, w.start, slot);
    let secondStarted = false;
    await run(useS, () => {
      secondStarted = true;
      return w.start();
    });
    expect(secondStarted).toBe(false);
    expect(useS.getState().busy).toBe(true);
    slot.cancel!();
    release();
    await first;
    // A cancelled job ends quietly.
    expect(useS.getState()).toEqual({ busy: false, progress: null, error: null, done: null });
    expect(slot.cancel).toBeNull();
  });
});

describe('job marks (a reload leaves a mark, any end in the tab removes it)', () => {
  it('marks the job while it runs, removes the mark when it ends, done or failed or cancelled', async () => {
    const { interruptedSince } = await import('../../src/state/job-marks');
    for (const outcome of ['done', 'failed', 'cancelled'] as const) {
      const useS = store();
      let during: number | null = -1;
      const w = fakeWorker(async () => {
        // Seen from another tab (runningHere false) while it runs: the mark is there, no Web Lock held
        // in this environment, so it reads as interrupted — as it would after a reload.
        during = await interruptedSince('test-lock');
        return outcome === 'done'
          ? { kind: 'done', v: 'x' }
          : outcome === 'failed'
            ? { kind: 'failed', message: 'no' }
            : { kind: 'cancelled' };
      });
      await run(useS, w.start);
      expect(during, outcome).toBeGreaterThan(0);
      expect(await interruptedSince('test-lock'), outcome).toBeNull();
      // The tab that runs the job never reads its own job as interrupted.
      expect(await interruptedSince('test-lock', true), outcome).toBeNull();
    }
  });

  it('a mark left by a tab that is gone reads as interrupted, with its start, until ended', async () => {
    const { interruptedSince, markJobEnded, markJobStarted } = await import('../../src/state/job-marks');
    markJobStarted('dw-signatures-7', 1_700_000_000_000);
    expect(await interruptedSince('dw-signatures-7')).toBe(1_700_000_000_000);
    expect(await interruptedSince('dw-signatures-8')).toBeNull();
    markJobEnded('dw-signatures-7');
    expect(await interruptedSince('dw-signatures-7')).toBeNull();
  });
});

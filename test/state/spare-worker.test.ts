/**
 * The spare ingest worker's warm-up is the page's call (src/state/spare-worker.ts): asked once no job has
 * run in the tab for 2 s, held off while any job runs — a job started right after a read never shares
 * the cores with it — and asked again once the tab is idle again.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const calls: string[] = [];
vi.mock('../../src/workers/client', () => ({
  startIngestWorker: () => ({
    api: {
      warmUp: () => {
        calls.push('warmUp');
        return Promise.resolve(true);
      },
      holdWarmUp: () => {
        calls.push('hold');
      },
    },
    terminate: () => calls.push('terminate'),
  }),
}));

type Spare = typeof import('../../src/state/spare-worker');
let spare: Spare;

beforeEach(async () => {
  calls.length = 0;
  vi.useFakeTimers();
  vi.stubGlobal('Worker', class {});
  vi.resetModules();
  spare = await import('../../src/state/spare-worker');
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the spare ingest worker warms up while the tab is idle', () => {
  it('is asked 2 s after it starts, once', () => {
    spare.startSpare();
    vi.advanceTimersByTime(1999);
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual(['warmUp']);
    vi.advanceTimersByTime(10_000);
    expect(calls).toEqual(['warmUp']);
  });

  it('a job holds it off; it is asked again 2 s after the last job ends', () => {
    spare.startSpare();
    vi.advanceTimersByTime(1000);
    spare.jobStarted();
    spare.jobStarted();
    expect(calls).toEqual(['hold', 'hold']);
    vi.advanceTimersByTime(5000);
    spare.jobEnded();
    vi.advanceTimersByTime(5000);
    expect(calls).toEqual(['hold', 'hold']);
    spare.jobEnded();
    vi.advanceTimersByTime(1999);
    expect(calls).toEqual(['hold', 'hold']);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual(['hold', 'hold', 'warmUp']);
  });

  it('a hidden tab waits until it is shown, then 2 s of idle', () => {
    let shown: (() => void) | null = null;
    const doc = {
      visibilityState: 'hidden',
      addEventListener: (type: string, fn: () => void) => {
        if (type === 'visibilitychange') shown = fn;
      },
    };
    vi.stubGlobal('document', doc);
    spare.startSpare();
    vi.advanceTimersByTime(10_000);
    expect(calls).toEqual([]);
    expect(shown).not.toBeNull();
    doc.visibilityState = 'visible';
    shown!();
    vi.advanceTimersByTime(1999);
    expect(calls).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(calls).toEqual(['warmUp']);
  });

  it('a job that takes the spare leaves nothing to warm until the next spare', () => {
    spare.startSpare();
    spare.jobStarted();
    spare.takeSpare();
    spare.jobEnded();
    vi.advanceTimersByTime(5000);
    expect(calls).toEqual(['hold']);
    spare.startSpare();
    vi.advanceTimersByTime(2000);
    expect(calls).toEqual(['hold', 'warmUp']);
  });
});

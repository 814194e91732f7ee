/**
 * The renderer's memory for the benches that run in Chromium: the largest VmHWM among the renderer
 * processes this process started (Linux /proc).
 */
import { readdirSync, readFileSync } from 'node:fs';

function parents(): Map<number, number> {
  const out = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const st = readFileSync(`/proc/${d}/stat`, 'utf8');
      out.set(Number(d), Number(st.slice(st.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // the process ended between the listing and the read
    }
  }
  return out;
}

/**
 * The largest VmHWM (high-water mark, MiB) among the renderer processes under this one: the page and its
 * ingest workers live there. Only this process's descendants, so another Chromium on the machine (a test
 * run beside this one) does not count. Sampled often, as a crashed renderer's /proc is gone.
 */
export function rendererPeakMB(): number {
  const ppid = parents();
  let peak = 0;
  for (const [pid] of ppid) {
    let p = ppid.get(pid);
    while (p !== undefined && p > 1 && p !== process.pid) p = ppid.get(p);
    if (p !== process.pid) continue;
    try {
      if (!readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) continue;
      const kb = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      if (kb) peak = Math.max(peak, Number(kb[1]) / 1024);
    } catch {
      // ended meanwhile
    }
  }
  return peak;
}

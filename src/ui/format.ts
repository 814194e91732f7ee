/** Display helpers (pure). */
export function fmtBytes(n: number): string {
  if (n < 0) return '–';
  if (n < 1024) return `${n} B`;
  const u = ['KB', 'MB', 'GB', 'TB'];
  let v = n / 1024;
  let i = 0;
  while (v >= 1024 && i < u.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v < 10 ? v.toFixed(1) : Math.round(v)} ${u[i]}`;
}

export function fmtInt(n: number): string {
  return n.toLocaleString('en-US');
}

export function fmtDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '–';
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

export function fmtSize(min: number, max: number): string {
  if (min < 0 && max < 0) return '–';
  return min === max || min < 0 ? fmtBytes(max) : `${fmtBytes(min)}–${fmtBytes(max)}`;
}

/** Rate (bytes/s) and ETA from a progress snapshot. */
export function rateAndEta(
  bytesRead: number,
  total: number,
  elapsedMs: number,
): { rate: number; etaMs: number } {
  const rate = elapsedMs > 0 ? (bytesRead / elapsedMs) * 1000 : 0;
  return { rate, etaMs: rate > 0 ? ((total - bytesRead) / rate) * 1000 : NaN };
}

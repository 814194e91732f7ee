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

/**
 * One formatter for every count on screen: Chromium's `n.toLocaleString('en-US')` builds ICU's formatter
 * anew each call (11 µs a call against 0.7 µs, measured in this Chromium); the pages table and the
 * ingest panel format thousands of numbers (30 ms of the page's thread in docsite's drop, profiled).
 */
const INTEGERS = new Intl.NumberFormat('en-US');

export function fmtInt(n: number): string {
  return INTEGERS.format(n);
}

/**
 * A count and its noun, singular for exactly one: `plural(1, 'host')` is "1 host", `plural(4, 'host')`
 * "4 hosts", `plural(2, 'rule stays', 'rules stay')` "2 rules stay". The plural is `one` + "s" unless given.
 */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${fmtInt(n)} ${n === 1 ? one : many}`;
}

/**
 * A duration as the analyst reads it: tenths of a second under 10 s ("0.3 s", never "0 s" for work that
 * took time; "< 0.1 s" below that), whole seconds to a minute, then minutes and seconds.
 */
export function fmtDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '–';
  if (ms < 100) return '< 0.1 s';
  if (ms < 9_950) return `${(ms / 1000).toFixed(1)} s`;
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/**
 * When something happened, to the second, in the analyst's time zone ("26 Nov 2026, 10:59:33"): what tells
 * apart datasets read from files of the same name, minutes apart.
 */
export function fmtWhen(iso: string): string {
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return '–';
  return t.toLocaleString('en-GB', {
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
}

export function fmtSize(min: number, max: number): string {
  if (min < 0 && max < 0) return '–';
  return min === max || min < 0 ? fmtBytes(max) : `${fmtBytes(min)}–${fmtBytes(max)}`;
}

/**
 * An ETA means something only once the rate has settled: the first 64 KB of a 34 MB crawl said
 * "ETA 1 min 35 s" for a 16 s read; in parallel parts 5% of the bytes can come in the first half second
 * (sniffing and the part workers' start-up are not the read's rate). So: after 2 s of reading, or once
 * 5% of the bytes were read over at least a second.
 */
export const ETA_MIN_MS = 2000;
export const ETA_MIN_FRACTION = 0.05;
const ETA_FRACTION_MIN_MS = 1000;

/** Rate (bytes/s) and ETA from a progress snapshot; the ETA is NaN until it means something (above). */
export function rateAndEta(
  bytesRead: number,
  total: number,
  elapsedMs: number,
): { rate: number; etaMs: number } {
  const rate = elapsedMs > 0 ? (bytesRead / elapsedMs) * 1000 : 0;
  const settled =
    elapsedMs >= ETA_MIN_MS ||
    (elapsedMs >= ETA_FRACTION_MIN_MS && total > 0 && bytesRead / total >= ETA_MIN_FRACTION);
  return { rate, etaMs: rate > 0 && settled ? ((total - bytesRead) / rate) * 1000 : NaN };
}

/**
 * Shortens a URL to at most `max` characters by cutting its middle: the scheme and host stay at the front,
 * the end of the path and the query (where DUST differs: `;jsessionid=…`, `?p=12`, `index.html`) at the
 * back. Short URLs come back unchanged.
 */
export function middleEllipsis(url: string, max = 64): string {
  if (url.length <= max || max < 8) return url;
  const m = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url);
  const origin = m ? m[0] : '';
  // Keep the origin when it leaves room for a useful tail; otherwise split the budget evenly.
  const head = origin && origin.length <= max * 0.5 ? origin.length : Math.ceil((max - 1) * 0.4);
  const tail = max - 1 - head;
  return `${url.slice(0, head)}…${url.slice(url.length - tail)}`;
}

/**
 * What kind of file a dataset came from, short: "warc.gz", "crawl-log", "wacz" (a WACZ's WARCs are
 * named by `long`: "wacz: warc (gzip)").
 */
export function kindOf(
  d: {
    format: string;
    compressed: boolean;
    container?: string;
    /** The files read: a zstd first file makes it "(zstd)", ".zst" (gzip otherwise). */
    sources?: readonly { compression?: 'zstd' }[];
  },
  long = false,
): string {
  const zstd = d.sources?.[0]?.compression === 'zstd';
  const inner = long
    ? `${d.format}${d.compressed ? (zstd ? ' (zstd)' : ' (gzip)') : ''}`
    : `${d.format}${d.compressed ? (zstd ? '.zst' : '.gz') : ''}`;
  if (d.container === 'wacz') return long ? `wacz: ${inner}` : 'wacz';
  return inner;
}

/**
 * Unicode's bidirectional controls (UAX #9): the embeddings and overrides U+202A–U+202E, the isolates
 * U+2066–U+2069, the marks U+200E, U+200F and U+061C. In a crawled URL or title they would reorder what
 * the analyst reads (`http://bidi.test/‮gnp.exe/doc` shows as …/cod/exe.png), so they are never applied.
 */
const BIDI_CONTROL = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const BIDI_CONTROLS = new RegExp(BIDI_CONTROL.source, 'g');

/**
 * Crawled text (a URL, a title, a rule spelling) as the UI shows it: every bidirectional control written
 * out visibly as ⟨U+202E⟩ where it stands, so the text reads in the order it was stored. Every place that
 * renders a URL or a title goes through this (Url does for URLs).
 */
export function escapeBidi(s: string): string {
  if (!BIDI_CONTROL.test(s)) return s;
  return s.replace(
    BIDI_CONTROLS,
    (c) => `⟨U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`,
  );
}

/**
 * URL normalisation (lecture: "URL normalisation" before the content-seen test): WHATWG URL parsing
 * lowercases scheme and host and drops the default port; we also drop the fragment. Unparseable input
 * is returned trimmed, so nothing is lost.
 */
export interface NormalisedUrl {
  href: string;
  host: string;
  ok: boolean;
}

export function normaliseUrl(raw: string, base?: string): NormalisedUrl {
  const s = raw.trim();
  try {
    const u = base === undefined ? new URL(s) : new URL(s, base);
    u.hash = '';
    return { href: u.href, host: u.host, ok: true };
  } catch {
    return { href: s, host: '', ok: false };
  }
}

/** Outlinks worth keeping: web pages, not mailto:, javascript:, data: … */
export function isWebUrl(href: string): boolean {
  return href.startsWith('http://') || href.startsWith('https://');
}

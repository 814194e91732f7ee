/**
 * The site a host belongs to, for mining DUST "within a given web site" (DustBuster §1). A site is
 * more than one host name: the paper's forum site "supports multiple domain names" and its large news
 * site "makes use of several sub-domains" (§6), and its own examples cross them (google.com/news and
 * news.google.com; cnn.com/money/… redirected to money.cnn.com/…). So the default site is the
 * registrable domain — the public suffix plus one label — with the port dropped.
 *
 * Without the Public Suffix List (tens of thousands of entries), the suffix is guessed: the last label,
 * or the last two when the last is a two-letter country code and the one before it is one of the
 * generic second-level labels countries use (co.uk, com.au, co.il, ac.jp, …). IP addresses are their
 * own site.
 */

const SECOND_LEVEL = new Set([
  'ac',
  'co',
  'com',
  'edu',
  'go',
  'gob',
  'gov',
  'gv',
  'ltd',
  'mil',
  'ne',
  'net',
  'nic',
  'nom',
  'or',
  'org',
  'plc',
  'sch',
]);

/** The host name without its port; IPv6 literals keep their brackets. */
export function hostnameOf(host: string): string {
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    return end < 0 ? host : host.slice(0, end + 1);
  }
  const colon = host.lastIndexOf(':');
  return colon < 0 ? host : host.slice(0, colon);
}

const IPV4 = /^\d{1,3}(?:\.\d{1,3}){3}$/;

/** 'news.google.com:8080' → 'google.com'; 'www.bbc.co.uk' → 'bbc.co.uk'; '127.0.0.1:18081' → '127.0.0.1'. */
export function registrableDomain(host: string): string {
  const name = hostnameOf(host.toLowerCase()).replace(/\.$/, '');
  if (name.startsWith('[') || IPV4.test(name)) return name;
  const labels = name.split('.');
  if (labels.length <= 2) return name;
  const n = labels.length;
  const keep = labels[n - 1].length === 2 && SECOND_LEVEL.has(labels[n - 2]) ? 3 : 2;
  return labels.slice(n - keep).join('.');
}

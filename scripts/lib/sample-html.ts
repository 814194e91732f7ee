// Structured page model for the sample crawl: renders HTML and the visible text
// that ground truth (identical-text / Jaccard) is computed from.

export interface Link {
  href: string;
  label: string;
}

export interface PageModel {
  lang: 'en' | 'zh';
  title: string;
  metaCharset?: string;
  baseHref?: string;
  /** Raw HTML appended inside <head> (stylesheet links, hostile scripts). */
  headExtra?: string;
  site: string;
  nav: Link[];
  heading: string;
  byline?: string;
  paragraphs: string[];
  code?: string;
  relatedTitle?: string;
  related?: Link[];
  prev?: Link;
  next?: Link;
  footer: string;
  /** Site-wide links in the footer (about, contact, licence): part of the template. */
  footerLinks?: Link[];
  /** Mirror banner text, rendered as `<div class=banner>` right after <body>. */
  banner?: string;
  /** Per-request stamp, rendered as a `<p>` right before </body>. */
  stamp?: string;
}

export function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

const a = (l: Link): string => `<a href="${esc(l.href)}">${esc(l.label)}</a>`;

export function renderPage(p: PageModel): string {
  const out: string[] = ['<!DOCTYPE html>', `<html lang="${p.lang}">`, '<head>'];
  if (p.metaCharset) out.push(`<meta charset="${p.metaCharset}">`);
  out.push(`<title>${esc(p.title)}</title>`);
  if (p.baseHref) out.push(`<base href="${esc(p.baseHref)}">`);
  out.push('<meta name="viewport" content="width=device-width, initial-scale=1">');
  if (p.headExtra) out.push(p.headExtra);
  out.push('</head>', '<body>');
  if (p.banner !== undefined) out.push(`<div class=banner>${esc(p.banner)}</div>`);
  out.push(`<header><div class="logo">${esc(p.site)}</div>`);
  if (p.nav.length > 0) out.push(`<nav><ul>${p.nav.map((l) => `<li>${a(l)}</li>`).join('')}</ul></nav>`);
  out.push('</header>', '<main>', '<article>', `<h1>${esc(p.heading)}</h1>`);
  if (p.byline) out.push(`<p class="byline">${esc(p.byline)}</p>`);
  for (const para of p.paragraphs) out.push(`<p>${esc(para)}</p>`);
  if (p.code) out.push(`<pre><code>${esc(p.code)}</code></pre>`);
  out.push('</article>');
  if (p.related && p.related.length > 0) {
    out.push(`<aside><h2>${esc(p.relatedTitle ?? 'Related')}</h2><ul>`);
    for (const l of p.related) out.push(`<li>${a(l)}</li>`);
    out.push('</ul></aside>');
  }
  if (p.prev || p.next) {
    out.push(
      `<div class="pager">${p.prev ? `<span class="prev">${a(p.prev)}</span>` : ''}` +
        `${p.next ? ` <span class="next">${a(p.next)}</span>` : ''}</div>`,
    );
  }
  out.push('</main>', '<footer>');
  if (p.footerLinks && p.footerLinks.length > 0)
    out.push(`<ul class="site-links">${p.footerLinks.map((l) => `<li>${a(l)}</li>`).join('')}</ul>`);
  out.push(`<p>${esc(p.footer)}</p>`, '</footer>');
  if (p.stamp !== undefined) out.push(`<p>${esc(p.stamp)}</p>`);
  out.push('</body>', '</html>', '');
  return out.join('\n');
}

/** Visible body text in document order (no <title>, no scripts). */
export function visibleText(p: PageModel): string {
  const parts: string[] = [];
  if (p.banner !== undefined) parts.push(p.banner);
  parts.push(p.site, ...p.nav.map((l) => l.label), p.heading);
  if (p.byline) parts.push(p.byline);
  parts.push(...p.paragraphs);
  if (p.code) parts.push(p.code);
  if (p.related && p.related.length > 0)
    parts.push(p.relatedTitle ?? 'Related', ...p.related.map((l) => l.label));
  if (p.prev) parts.push(p.prev.label);
  if (p.next) parts.push(p.next.label);
  if (p.footerLinks) parts.push(...p.footerLinks.map((l) => l.label));
  parts.push(p.footer);
  if (p.stamp !== undefined) parts.push(p.stamp);
  return parts.join('\n');
}

/** Main content only: heading, byline and paragraphs. */
export function mainText(p: PageModel): string {
  return [p.heading, p.byline ?? '', ...p.paragraphs].join('\n');
}

/** Absolute http(s) URLs of all <a href>s, fragment removed, in document order, unique. */
export function outlinks(p: PageModel, pageUrl: string): string[] {
  const base = p.baseHref ?? pageUrl;
  const links = [
    ...p.nav,
    ...(p.related ?? []),
    ...(p.prev ? [p.prev] : []),
    ...(p.next ? [p.next] : []),
    ...(p.footerLinks ?? []),
  ];
  const seen = new Set<string>();
  for (const l of links) {
    const u = new URL(l.href, base);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') continue;
    u.hash = '';
    seen.add(u.href);
  }
  return [...seen];
}

/** Tokens: lowercase [a-z0-9]+ runs and single CJK ideographs. */
export function tokens(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9]+|[\u3400-\u9fff]/g) ?? [];
}

export function shingles(text: string, k = 5): Set<string> {
  const t = tokens(text);
  const out = new Set<string>();
  for (let i = 0; i + k <= t.length; i++) out.add(t.slice(i, i + k).join(' '));
  if (t.length > 0 && t.length < k) out.add(t.join(' '));
  return out;
}

export function jaccard(a: Set<string>, b: Set<string>): number {
  let inter = 0;
  for (const s of a) if (b.has(s)) inter++;
  const union = a.size + b.size - inter;
  return union === 0 ? 1 : Math.round((inter / union) * 1000) / 1000;
}

import { hash32, hash32Units } from '../hash';
import { registrableDomain } from '../url/site';

/**
 * Template text: the lines a site repeats on many of its pages (navigation, sidebars, headers,
 * footers, a mirror's banner), as the Common Crawl cleaning pipelines find it — CCNet (Wenzek et al.
 * 2020, §3.2): hash each normalised line, count the hashes over a shard, drop the lines seen too
 * often. Here the shard is one site (registrable domain, as DUST's sites, src/core/url/site.ts) and
 * "too often" is a share of the site's pages, so one rule holds for a 20-page blog and a 100k-page
 * manual. The near-replica methods then compare what is left, the page's own (main) text: on real
 * sites the template is what the first sentence, a bag of words or a shingle set otherwise reads.
 *
 * Pages with the same text (URL aliases: `dir/` and `dir/index.html`, a `?sessionid=`) count once:
 * otherwise a story crawled under four URLs would make its own paragraphs "repeat on four pages".
 */
export interface TemplateOptions {
  /** Leave template text out of the signatures (false: the whole page, as the papers compare it). */
  strip: boolean;
  /** A site needs this many distinct page texts for a model; smaller sites keep all their text. */
  minPages: number;
  /** A line is template when it is on at least this share of the site's distinct page texts… */
  minShare: number;
  /** …and on at least this many of them (CCNet drops a line seen more than once per shard; a site is smaller). */
  minCount: number;
  /** A line inside <nav>, <header>, <footer> or <aside> (outside <article>/<main>) counts this many times. */
  hintWeight: number;
  /** Lines with fewer characters than this are never template on their own (a bare "1." or "—"). */
  minLineLength: number;
}

export const TEMPLATE_DEFAULTS: TemplateOptions = {
  strip: true,
  minPages: 10,
  minShare: 0.1,
  minCount: 15,
  hintWeight: 2,
  minLineLength: 1,
};

/** A page as the model reads it. */
export interface TemplatePage {
  /** The page's (normalised) URL: its site is the registrable domain of the host. */
  url: string;
  /** Tidied text: one line per block (src/core/text/tidy.ts tidyText). */
  text: string;
  /** Hashes (templateLineHash) of the lines the extractor found inside template elements. */
  hints?: readonly number[];
}

/**
 * A model as the signatures job stores it with its analysis: each site's count of distinct texts and its
 * template lines (hashes). The page detail splits a page by it, so it shows the template text that was
 * left out of what was compared.
 */
export interface StoredTemplate {
  sites: { site: string; texts: number; lines: number[] }[];
}

/** A page's text split into its main text and its template lines. */
export interface TemplateSplit {
  /** The non-template lines, joined by line breaks. */
  main: string;
  /** Template text as [start, end) character ranges of the page text, in order, adjacent lines merged. */
  spans: [number, number][];
}

/**
 * CCNet's line normalisation (lower case, digits as 0, runs of white space as one space), and a URL
 * as one token: a mirror's "Mirrored from <its source URL>" banner is one line on every page.
 */
export function normaliseLine(line: string): string {
  return line
    .toLowerCase()
    .replace(/[a-z][a-z0-9+.-]*:\/\/\S+/g, '<url>')
    .replace(/\p{Nd}/gu, '0')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Code units of a normalised line (reused: the template model hashes every line of every page twice). */
let units = new Uint16Array(1024);

/** Per BMP code unit: 1 for a decimal digit (\p{Nd}), 2 for white space (\s); built on first use. */
let classes: Uint8Array | null = null;

function unitClasses(): Uint8Array {
  const t = new Uint8Array(0x10000);
  const digit = /\p{Nd}/u;
  const space = /\s/;
  for (let c = 0; c < 0x10000; c++) {
    if (c >= 0xd800 && c <= 0xdfff) continue;
    const ch = String.fromCharCode(c);
    if (digit.test(ch)) t[c] = 1;
    else if (space.test(ch)) t[c] = 2;
  }
  return t;
}

/**
 * hash32(normaliseLine(line)), without making the normalised string when the line holds no URL and no
 * character outside the Basic Multilingual Plane (nearly every line): the line lowercased whole (as
 * normaliseLine does: one native call, and context-dependent rules such as a final sigma stay its own),
 * then digits as '0' and white space runs as one space (none at the ends) written code unit by code
 * unit and hashed there. Other lines take normaliseLine itself.
 */
export function templateLineHash(line: string): number {
  if (line.indexOf('://') >= 0) return hash32(normaliseLine(line));
  const lower = line.toLowerCase();
  const n = lower.length;
  if (units.length < n) units = new Uint16Array(Math.max(n, 2 * units.length));
  const u = units;
  const cls = (classes ??= unitClasses());
  let len = 0;
  let space = false;
  for (let i = 0; i < n; i++) {
    let c = lower.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) return hash32(normaliseLine(line));
    const k = cls[c];
    if (k === 2) {
      space = len > 0;
      continue;
    }
    if (space) {
      u[len++] = 32;
      space = false;
    }
    if (k === 1) c = 48;
    u[len++] = c;
  }
  return hash32Units(u, len);
}

/** The site a page belongs to (registrable domain; '' when the URL does not parse). */
export function siteOfUrl(url: string): string {
  try {
    return registrableDomain(new URL(url).host);
  } catch {
    return '';
  }
}

interface SiteCounts {
  /** Distinct page texts seen. */
  texts: number;
  seen: Set<number>;
  /** Weighted count of distinct texts per line hash. */
  counts: Map<number, number>;
}

/**
 * The per-site line counts, fed one page at a time (the signatures job streams pages from IndexedDB
 * twice: `observe` on the first pass, `split` on the second), so no page text is held.
 */
export class TemplateModel {
  private readonly sites = new Map<string, SiteCounts>();
  readonly opts: TemplateOptions;

  constructor(opts: Partial<TemplateOptions> = {}) {
    this.opts = { ...TEMPLATE_DEFAULTS, ...opts };
  }

  /**
   * The template hash of each line of text (its lines at '\n', as observe and split read them), −1 for a
   * line shorter than minLineLength: computed once, for both passes (the signatures job holds them).
   */
  lineHashes(text: string): Float64Array {
    let lines = 1;
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
    const out = new Float64Array(lines);
    let at = 0;
    for (let k = 0; k < lines; k++) {
      let end = text.indexOf('\n', at);
      if (end < 0) end = text.length;
      out[k] = end - at < this.opts.minLineLength ? -1 : templateLineHash(text.slice(at, end));
      at = end + 1;
    }
    return out;
  }

  /** Counts a page's lines on its site (`hashes`: its lineHashes, when already made). */
  observe(page: TemplatePage, hashes: Float64Array = this.lineHashes(page.text)): void {
    const site = siteOfUrl(page.url);
    let s = this.sites.get(site);
    if (!s) this.sites.set(site, (s = { texts: 0, seen: new Set(), counts: new Map() }));
    const id = hash32(page.text, 0x7e57);
    if (s.seen.has(id)) return;
    s.seen.add(id);
    s.texts++;
    const hints = page.hints && page.hints.length ? new Set(page.hints) : null;
    const once = new Set<number>();
    for (let k = 0; k < hashes.length; k++) {
      const h = hashes[k];
      if (h < 0 || once.has(h)) continue;
      once.add(h);
      const w = hints?.has(h) ? this.opts.hintWeight : 1;
      s.counts.set(h, (s.counts.get(h) ?? 0) + w);
    }
  }

  /** Is a line (by hash) template on this site? */
  private isTemplate(s: SiteCounts | undefined, h: number): boolean {
    if (!s || s.texts < this.opts.minPages) return false;
    const need = Math.max(this.opts.minCount, this.opts.minShare * s.texts);
    return (s.counts.get(h) ?? 0) >= need;
  }

  /** A page's main text and template spans (`hashes`: its lineHashes, when already made). */
  split(page: TemplatePage, hashes: Float64Array = this.lineHashes(page.text)): TemplateSplit {
    const s = this.sites.get(siteOfUrl(page.url));
    const text = page.text;
    const main: string[] = [];
    const spans: [number, number][] = [];
    let at = 0;
    for (let k = 0; at <= text.length; k++) {
      let end = text.indexOf('\n', at);
      if (end < 0) end = text.length;
      const line = text.slice(at, end);
      if (hashes[k] >= 0 && this.isTemplate(s, hashes[k])) {
        const last = spans[spans.length - 1];
        // Adjacent template lines make one span (the line break between them included).
        if (last && last[1] + 1 >= at) last[1] = end;
        else spans.push([at, end]);
      } else if (line.length > 0) main.push(line);
      at = end + 1;
    }
    return { main: main.join('\n'), spans };
  }

  /** Each site's template lines (sites with enough texts), to be stored with the analysis. */
  toStored(): StoredTemplate {
    const sites = [...this.sites].filter(([, s]) => s.texts >= this.opts.minPages);
    return {
      sites: sites.map(([site, s]) => ({
        site,
        texts: s.texts,
        lines: [...s.counts.keys()].filter((h) => this.isTemplate(s, h)),
      })),
    };
  }

  /** The model stored (toStored): it splits every page, seen or not, as the model it was stored from. */
  static fromStored(opts: Partial<TemplateOptions>, stored: StoredTemplate): TemplateModel {
    const m = new TemplateModel(opts);
    for (const x of stored.sites) {
      const need = Math.max(m.opts.minCount, m.opts.minShare * x.texts);
      m.sites.set(x.site, {
        texts: x.texts,
        seen: new Set(),
        counts: new Map(x.lines.map((h) => [h, need])),
      });
    }
    return m;
  }

  /** Sites with a model (enough distinct texts), and the template lines each has. */
  stats(): { site: string; texts: number; templateLines: number }[] {
    return [...this.sites].map(([site, s]) => ({
      site,
      texts: s.texts,
      templateLines: [...s.counts.keys()].filter((h) => this.isTemplate(s, h)).length,
    }));
  }
}

/**
 * Every page's main text and template spans, the model built over the pages given (all of a crawl,
 * or all of one site). What the CLI, the benches and the page detail call; the signatures job runs the
 * same two steps over its stream.
 */
export function templateModel(
  pages: readonly TemplatePage[],
  opts: Partial<TemplateOptions> = {},
): TemplateSplit[] {
  const model = new TemplateModel(opts);
  for (const p of pages) model.observe(p);
  return pages.map((p) => model.split(p));
}

/** The text the signatures read: the main text when `strip` is on, else the whole page. */
export function mainTexts(pages: readonly TemplatePage[], opts: Partial<TemplateOptions> = {}): string[] {
  if (!{ ...TEMPLATE_DEFAULTS, ...opts }.strip) return pages.map((p) => p.text);
  return templateModel(pages, opts).map((s, i) => signatureText(s, pages[i].text));
}

/**
 * A page that is all template (a section index that only lists links) is compared whole: an empty
 * main text would make every such page alike.
 */
export function signatureText(split: TemplateSplit, text: string): string {
  return split.main || text;
}

// Real, freely licensed text for the sample crawl: sections of Debian documentation packages, read
// from their installed HTML. Word salad from a small vocabulary makes every bag-of-words method find
// every page similar to every other; real sections are as different from each other as real pages.
//
// Sources (both DFSG-free, GPL-2 or later; see /usr/share/doc/<package>/copyright):
//   debian-reference-en, debian-reference-zh-cn  Debian Reference 2 (Osamu Aoki and translators)
//   developers-reference                         Debian Developer's Reference (Schwarz, Di Carlo, Hertzog, ...)
// Deliberately not the packages of the docsite benchmark (git-doc, debian-faq, debian-faq-zh-cn,
// maint-guide-zh-cn): the sample must not be tuned on the set the methods are measured on.

import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Parser } from 'htmlparser2';

export interface TextSource {
  pkg: string;
  dir: string;
  /** Files of the multi-page edition (the single-page edition would repeat every section). */
  files: RegExp;
  lang: 'en' | 'zh';
}

export const DEBIAN_REFERENCE_EN: TextSource = {
  pkg: 'debian-reference-en',
  dir: '/usr/share/debian-reference',
  files: /^(ch\d\d|pr01|apa)\.en\.html$/,
  lang: 'en',
};
export const DEBIAN_REFERENCE_ZH: TextSource = {
  pkg: 'debian-reference-zh-cn',
  dir: '/usr/share/debian-reference',
  files: /^(ch\d\d|pr01|apa)\.zh-cn\.html$/,
  lang: 'zh',
};
export const DEVELOPERS_REFERENCE: TextSource = {
  pkg: 'developers-reference',
  dir: '/usr/share/developers-reference',
  files: /^(?!index|search|developers-reference)[a-z0-9-]+\.html$/,
  lang: 'en',
};

/** Installs the packages that are missing (as /work/shared/datasets/build-docsite.sh does). */
export function ensurePackages(pkgs: string[]): void {
  const missing = pkgs.filter((p) => {
    try {
      execFileSync('dpkg', ['-s', p], { stdio: 'ignore' });
      return false;
    } catch {
      return true;
    }
  });
  if (missing.length === 0) return;
  console.log(`installing ${missing.join(' ')}`);
  execFileSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing], {
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

/** Package version, recorded in truth.json so a rebuild on another release can be told apart. */
export function packageVersion(pkg: string): string {
  return execFileSync('dpkg-query', ['-W', '-f=${Version}', pkg], { encoding: 'utf8' }).trim();
}

export interface Section {
  /** `pkg/file#n`: where the text comes from. */
  origin: string;
  /** Chapter file without extension (`ch03`, `pkgs`). */
  chapter: string;
  title: string;
  paragraphs: string[];
  /** First literal block of the section (a command example), if any. */
  code?: string;
  /** Words (English) or ideographs (Chinese) in the paragraphs. */
  size: number;
}

const CJK = '\\u3000-\\u303f\\u3400-\\u9fff\\uff00-\\uffef';
const CJK_GAP = new RegExp(`([${CJK}])\\s+(?=[${CJK}])`, 'g');

function tidy(s: string, lang: 'en' | 'zh'): string {
  const t = s.replace(/[\s\u00a0]+/g, ' ').trim();
  // Line breaks inside Chinese source text are not spaces.
  return lang === 'zh' ? t.replace(CJK_GAP, '$1') : t;
}

export function sizeOf(text: string, lang: 'en' | 'zh'): number {
  return lang === 'zh'
    ? (text.match(/[\u3400-\u9fff]/g) ?? []).length
    : (text.match(/[A-Za-z0-9]+/g) ?? []).length;
}

/** Section numbers and chapter labels the documents put in their headings. */
const stripNumber = (t: string): string =>
  t
    .replace(/^(Chapter|Appendix)\s+[\dA-Z]+\.\s*/, '')
    .replace(/^第\s*\d+\s*章\s*/, '')
    .replace(/^附录\s*[A-Z]\.?\s*/, '')
    .replace(/^[\dA-Z]+(\.\d+)*\.\s*/, '')
    .trim();

/** Containers whose text is navigation or tables, not prose. */
function skipped(name: string, cls: string): boolean {
  if (name === 'table' || name === 'script' || name === 'style' || name === 'sup') return true;
  if (name === 'a' && cls.includes('headerlink')) return true;
  return /\b(toc|navheader|navfooter|sphinxsidebar|footer|related|list-of-tables|titlepage-author)\b/.test(
    cls,
  );
}

/** Sections (h1–h4 boundaries) of one HTML file, in document order, with their <p> text. */
export function sectionsOfHtml(html: string, origin: string, chapter: string, lang: 'en' | 'zh'): Section[] {
  const out: Section[] = [];
  let cur: Section | null = null;
  const stack: Array<{ name: string; skip: boolean }> = [];
  let skipDepth = 0;
  let heading: string | null = null;
  let para: string | null = null;
  let pre: string | null = null;
  const push = (title: string) => {
    cur = { origin: `${origin}#${out.length}`, chapter, title, paragraphs: [], size: 0 };
    out.push(cur);
  };
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        const skip = skipped(name, attrs.class ?? '');
        stack.push({ name, skip });
        if (skip) skipDepth++;
        if (skipDepth > 0) return;
        if (/^h[1-4]$/.test(name)) heading = '';
        else if (name === 'p' && para === null && pre === null) para = '';
        else if (name === 'pre' && pre === null) pre = '';
        else if (name === 'br' && para !== null) para += ' ';
      },
      ontext(text) {
        if (skipDepth > 0) return;
        if (heading !== null) heading += text;
        else if (pre !== null) pre += text;
        else if (para !== null) para += text;
      },
      onclosetag(name) {
        const top = stack.pop();
        if (top?.skip) {
          skipDepth--;
          return;
        }
        if (skipDepth > 0) return;
        if (/^h[1-4]$/.test(name) && heading !== null) {
          push(stripNumber(tidy(heading, lang)));
          heading = null;
        } else if (name === 'p' && para !== null) {
          const p = tidy(para, lang);
          para = null;
          if (cur && p) (cur as Section).paragraphs.push(p);
        } else if (name === 'pre' && pre !== null) {
          const code = pre.replace(/\s+$/, '').split('\n').slice(0, 8).join('\n');
          pre = null;
          if (cur && !(cur as Section).code && code.trim()) (cur as Section).code = code;
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.end(html);
  return out;
}

export interface PoolOptions {
  /** Paragraphs shorter than this (words / ideographs) are skipped: captions, "See also" lines. */
  minParagraph: number;
  /** Sections with less text than this are merged into nothing: they are left out. */
  minSize: number;
  /** Paragraphs after this much text are dropped: pages of a few hundred words, like news stories. */
  maxSize: number;
}

/**
 * Every usable section of a source, in sorted-file then document order. A paragraph is used at most
 * once across the whole run (`seen`), and section titles are unique, so no two pages share prose
 * unless the generator copies it on purpose.
 */
export function readSections(src: TextSource, o: PoolOptions, seen: Set<string>): Section[] {
  const titles = new Set<string>();
  const files = readdirSync(src.dir)
    .filter((f) => src.files.test(f))
    .sort();
  if (files.length === 0) throw new Error(`no HTML of ${src.pkg} in ${src.dir}`);
  const out: Section[] = [];
  for (const f of files) {
    const html = readFileSync(join(src.dir, f), 'utf8');
    for (const s of sectionsOfHtml(html, `${src.pkg}/${f}`, f.replace(/\..*$/, ''), src.lang)) {
      if (!s.title || titles.has(s.title.toLowerCase())) continue;
      const paragraphs: string[] = [];
      let size = 0;
      for (const p of s.paragraphs) {
        const n = sizeOf(p, src.lang);
        if (n < o.minParagraph || seen.has(p) || size >= o.maxSize) continue;
        paragraphs.push(p);
        size += n;
      }
      if (size < o.minSize) continue;
      for (const p of paragraphs) seen.add(p);
      titles.add(s.title.toLowerCase());
      out.push({ ...s, paragraphs, size });
    }
  }
  return out;
}

/** Hands out sections in a fixed order, each at most once. */
export class Pool {
  private readonly left: Section[];
  constructor(sections: Section[]) {
    this.left = sections.slice();
  }
  /** The first section left that `pred` accepts. */
  take(pred: (s: Section) => boolean = () => true, what = 'a section'): Section {
    const i = this.left.findIndex(pred);
    if (i < 0) throw new Error(`text pool exhausted: no ${what} left`);
    return this.left.splice(i, 1)[0];
  }
  get size(): number {
    return this.left.length;
  }
}

const STOP = new Set([
  'a',
  'an',
  'and',
  'as',
  'for',
  'how',
  'in',
  'of',
  'on',
  'or',
  'the',
  'to',
  'with',
  'your',
]);

/** URL path segment for a title: its first five lowercase ASCII words but stop words, joined by '-'. */
export function slugify(title: string): string {
  const words = (title.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((w) => !STOP.has(w));
  return words.slice(0, 5).join('-') || 'section';
}

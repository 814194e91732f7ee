// docs.example.test and its near-replica mirror.example-docs.test.

import { type Rng, randHex } from './prng.ts';
import { type Link, type PageModel } from './sample-html.ts';
import { type Clock, type CrawlItem, type SiteBuild, htmlItem, plainItem, rel } from './sample-crawl.ts';
import { type Pool, type Section, slugify } from './sample-text.ts';

export const DOCS = 'http://docs.example.test';
export const MIRROR = 'http://mirror.example-docs.test';
const SERVER = 'nginx/1.24.0';
const MIRROR_SERVER = 'lighttpd/1.4.73';

/**
 * The site's sections, each fed by chapters of the Debian Developer's Reference: a section index (the
 * first text of its chapters) and `pages` pages named after their section titles.
 */
const SECTIONS: Array<{ dir: string; label: string; chapters: string[]; pages: number }> = [
  { dir: 'guide', label: 'Guide', chapters: ['new-maintainer', 'developer-duties'], pages: 6 },
  { dir: 'packaging', label: 'Packaging', chapters: ['pkgs'], pages: 6 },
  { dir: 'beyond', label: 'Beyond packaging', chapters: ['beyond-pkging'], pages: 5 },
  { dir: 'reference', label: 'Tools and resources', chapters: ['tools', 'resources'], pages: 5 },
];
/** Best practices: a listing and one directory per practice, each crawled as dir/ and dir/index.html. */
const PRACTICES_DIR = '/practices/';
const PRACTICES_CHAPTER = 'best-pkging-practices';
const PRACTICE_COUNT = 26;
/** Where the oddities live: [section index, page index]. */
const BASE_HREF_AT = [3, 0] as const;
const GZIP_AT = [3, 4] as const;
const ANGLE_AT = [0, 2] as const;
const MIRROR_INDEX_ALIASES = ['/guide/index.html', '/packaging/index.html'];
const CREDIT =
  "Text from the Debian Developer's Reference (Christian Schwarz, Adam Di Carlo, Raphaël Hertzog, Lucas Nussbaum and others), GNU GPL version 2 or later.";
const FOOTER_LINKS: Link[] = [
  { href: '/about.html', label: 'About these docs' },
  { href: '/search.html', label: 'Search' },
];

interface DocPage {
  path: string;
  label: string;
  model: PageModel;
}

/** Site navigation as seen from directory `dir`. */
function docNav(dir: string): Link[] {
  return [
    { href: '/', label: 'Docs home' },
    ...SECTIONS.map((s) => ({ href: rel(dir, `/${s.dir}/`), label: s.label })),
    { href: rel(dir, PRACTICES_DIR), label: 'Best practices' },
  ];
}

const footer = (path: string): string => `Example Docs. Page source: ${DOCS}${path}. ${CREDIT}`;

function baseModel(dir: string, path: string, label: string, t: Section): PageModel {
  return {
    lang: 'en',
    title: `${label} - Example Docs`,
    metaCharset: 'utf-8',
    headExtra: '<link rel="stylesheet" href="/static/docs.css">',
    site: 'Example Docs',
    nav: docNav(dir),
    heading: label,
    paragraphs: t.paragraphs,
    code: t.code,
    relatedTitle: 'See also',
    related: [],
    footerLinks: FOOTER_LINKS.map((l) => ({ ...l, href: rel(dir, l.href) })),
    footer: footer(path),
  };
}

/** Unique page names inside one directory. */
function namer(): (title: string) => string {
  const used = new Set<string>();
  return (title) => {
    let slug = slugify(title);
    for (let k = 2; used.has(slug); k++) slug = `${slugify(title)}-${k}`;
    used.add(slug);
    return slug;
  };
}

function buildModels(text: Pool): DocPage[] {
  const ofChapters = (chapters: string[]) => (t: Section) => chapters.includes(t.chapter);
  const sections = SECTIONS.map((s, si) => {
    const index = text.take(ofChapters(s.chapters), `${s.dir} text`);
    const name = namer();
    const pages = Array.from({ length: s.pages }, () => {
      const t = text.take(ofChapters(s.chapters), `${s.dir} text`);
      return { t, path: `/${s.dir}/${name(t.title)}.html` };
    });
    return { ...s, si, index, pages };
  });
  const home = text.take(ofChapters(['scope']), 'scope text');
  const about = text.take(ofChapters(['resources']), 'resources text');
  const at = (x: readonly [number, number]) => sections[x[0]].pages[x[1]].path;
  const baseHrefPage = at(BASE_HREF_AT);
  const baseDir = `/${SECTIONS[1].dir}/`;

  const out: DocPage[] = [];
  const link = (dir: string, to: string, text: string): Link => ({ href: rel(dir, to), label: text });
  {
    const m = baseModel('/', '/', 'Example Docs', home);
    m.related = sections.map((s) => link('/', `/${s.dir}/index.html`, `${s.label} overview`));
    m.related.push({ href: `${DOCS}/about.html`, label: 'About (absolute link)' });
    m.related.push(link('/', PRACTICES_DIR, 'Best packaging practices'));
    out.push({ path: '/', label: 'Example Docs', model: m });
  }
  for (const s of sections) {
    const dir = `/${s.dir}/`;
    const m = baseModel(dir, dir, s.label, s.index);
    m.related = s.pages.map((p) => link(dir, p.path, p.t.title));
    m.related[1] = { ...m.related[1], href: m.related[1].href + '#options' };
    out.push({ path: dir, label: s.label, model: m });
    s.pages.forEach((p, i) => {
      const baseHref = p.path === baseHrefPage ? `${DOCS}${baseDir}` : undefined;
      const from = baseHref ? baseDir : dir;
      const pm = baseModel(from, p.path, p.t.title, p.t);
      pm.baseHref = baseHref;
      const ps = s.pages;
      if (i > 0) pm.prev = link(from, ps[i - 1].path, `Previous: ${ps[i - 1].t.title}`);
      if (i < ps.length - 1) pm.next = link(from, ps[i + 1].path, `Next: ${ps[i + 1].t.title}`);
      pm.related = [link(from, dir, `Back to ${s.label}`)];
      // Relative links under <base href>: they resolve against the base directory, not the page's.
      if (baseHref)
        pm.related.push(
          ...sections[1].pages.slice(0, 2).map((q) => ({
            href: q.path.slice(baseDir.length),
            label: `${SECTIONS[1].label}: ${q.t.title}`,
          })),
        );
      out.push({ path: p.path, label: p.t.title, model: pm });
    });
  }
  out.push({
    path: '/about.html',
    label: 'About these docs',
    model: baseModel('/', '/about.html', 'About these docs', about),
  });
  return out;
}

/** Best practices: a listing and PRACTICE_COUNT pages, each in its own directory. Not mirrored. */
function buildPractices(text: Pool): DocPage[] {
  const fromChapter = (t: Section) => t.chapter === PRACTICES_CHAPTER;
  const intro = text.take(fromChapter, 'best practices text');
  const name = namer();
  const items = Array.from({ length: PRACTICE_COUNT }, () => {
    const t = text.take(fromChapter, 'best practices text');
    return { t, slug: name(t.title) };
  });
  const listing = baseModel(PRACTICES_DIR, PRACTICES_DIR, 'Best packaging practices', intro);
  listing.relatedTitle = 'All practices';
  listing.related = items.map((p) => ({ href: `${p.slug}/`, label: p.t.title }));
  const out: DocPage[] = [{ path: PRACTICES_DIR, label: 'Best packaging practices', model: listing }];
  items.forEach((p, i) => {
    const path = `${PRACTICES_DIR}${p.slug}/`;
    const sibling = (k: number, what: string): Link => ({
      href: `../${items[k].slug}/`,
      label: `${what}: ${items[k].t.title}`,
    });
    const m = baseModel(path, path, p.t.title, p.t);
    m.related = [
      { href: '../', label: 'All practices' },
      { href: 'index.html', label: 'Permalink' },
    ];
    m.prev = i > 0 ? sibling(i - 1, 'Previous') : undefined;
    m.next = i < items.length - 1 ? sibling(i + 1, 'Next') : undefined;
    out.push({ path, label: p.t.title, model: m });
  });
  return out;
}

/** `text`: sections of the Debian Developer's Reference. `rng`: the mirror's request stamps. */
export function buildDocs(rng: Rng, clock: Clock, text: Pool): SiteBuild {
  const out: SiteBuild = { items: [], relations: [], notDup: [] };
  const pages = buildModels(text);
  const practices = buildPractices(text);
  const pathAt = (x: readonly [number, number]): string =>
    pages.filter((p) => p.path.startsWith(`/${SECTIONS[x[0]].dir}/`))[1 + x[1]].path;
  const GZIP_PAGE = pathAt(GZIP_AT);
  const baseHrefPath = pathAt(BASE_HREF_AT);
  const ANGLE_PAGE = pathAt(ANGLE_AT);
  out.items.push(
    plainItem(
      DOCS + '/robots.txt',
      clock.next(),
      SERVER,
      'robots',
      'text/plain',
      'User-agent: *\nAllow: /\n',
    ),
  );
  for (const p of [...pages, ...practices]) {
    const item: CrawlItem = htmlItem(DOCS + p.path, p.model, {
      server: SERVER,
      date: clock.next(),
      kind: 'doc',
    });
    if (p.path === GZIP_PAGE) item.gzip = true;
    if (p.path === ANGLE_PAGE) item.angle = true;
    out.items.push(item);
    if (p.path.endsWith('/')) {
      const alias = htmlItem(`${DOCS}${p.path}index.html`, p.model, {
        server: SERVER,
        date: clock.next(),
        kind: 'doc-index-alias',
      });
      out.items.push(alias);
      out.relations.push({ url: alias.url, of: DOCS + p.path });
    }
  }
  out.items.push(
    plainItem(
      DOCS + '/static/docs.css',
      clock.next(),
      SERVER,
      'css',
      'text/css',
      'body { font-family: system-ui, sans-serif; }\npre { background: #f4f4f4; padding: 1em; }\n',
    ),
  );

  // The mirror: same pages, a banner after <body> and a per-request stamp.
  const mirrorPaths = pages.map((p) => ({ path: p.path, page: p }));
  for (const alias of MIRROR_INDEX_ALIASES) {
    const page = pages.find((p) => p.path === alias.replace('index.html', ''));
    if (page) mirrorPaths.push({ path: alias, page });
  }
  for (const { path, page } of mirrorPaths) {
    const date = clock.next();
    const model: PageModel = {
      ...page.model,
      banner: `Mirrored from ${DOCS}${page.path} - this copy may be out of date.`,
      stamp: `served ${date} req=${randHex(rng, 16)}`,
    };
    out.items.push(htmlItem(MIRROR + path, model, { server: MIRROR_SERVER, date, kind: 'mirror' }));
    out.relations.push({ url: MIRROR + path, of: DOCS + page.path });
  }
  const guide = pages.filter((p) => p.path.startsWith('/guide/') && p.path.endsWith('.html'));
  const beyond = pages.filter((p) => p.path.startsWith('/beyond/') && p.path.endsWith('.html'));
  out.notes = {
    baseHrefPage: baseHrefPath,
    baseHref: `/${SECTIONS[1].dir}/`,
    baseHrefLink: pages.find((p) => p.path === baseHrefPath)?.model.related?.[1]?.href ?? '',
    gzipPage: GZIP_PAGE,
    anglePage: ANGLE_PAGE,
    practices: PRACTICES_DIR,
    sections: SECTIONS.map((s) => `/${s.dir}/`).join(', '),
  };
  out.notDup.push(
    { a: DOCS + guide[0].path, b: DOCS + guide[1].path, kind: 'same-template' },
    { a: MIRROR + guide[0].path, b: DOCS + guide[1].path, kind: 'same-template-other-host' },
    { a: DOCS + beyond[0].path, b: DOCS + beyond[1].path, kind: 'same-template' },
    { a: DOCS + practices[1].path, b: DOCS + practices[2].path, kind: 'same-template' },
  );
  return out;
}

// docs.example.test and its near-replica mirror.example-docs.test.

import { type Rng, pick, randHex, randInt, shuffle } from './prng.ts';
import { type Link, type PageModel } from './sample-html.ts';
import {
  type Clock,
  type CrawlItem,
  type SiteBuild,
  htmlItem,
  plainItem,
  rel,
  titleCase,
} from './sample-crawl.ts';
import { paragraph } from './text-gen.ts';
import { NOUNS } from './wordlists.ts';

export const DOCS = 'http://docs.example.test';
export const MIRROR = 'http://mirror.example-docs.test';
const SERVER = 'nginx/1.24.0';
const MIRROR_SERVER = 'lighttpd/1.4.73';

const SECTIONS: Array<{ dir: string; label: string; pages: string[] }> = [
  { dir: 'guide', label: 'Guide', pages: ['install', 'configure', 'deploy', 'upgrade', 'troubleshooting'] },
  { dir: 'api', label: 'API', pages: ['client', 'server', 'events', 'errors', 'streams', 'auth'] },
  { dir: 'tutorial', label: 'Tutorial', pages: ['part-1', 'part-2', 'part-3', 'part-4', 'part-5', 'part-6'] },
  {
    dir: 'reference',
    label: 'Reference',
    pages: ['cli', 'config-file', 'environment', 'glossary', 'changelog'],
  },
];
const BASE_HREF_PAGE = '/reference/cli.html';
const GZIP_PAGE = '/reference/changelog.html';
const ANGLE_PAGE = '/guide/deploy.html';
const MIRROR_INDEX_ALIASES = ['/guide/index.html', '/api/index.html'];
/** Module reference: /modules/ and one directory per module, each crawled as dir/ and dir/index.html. */
const MODULES_DIR = '/modules/';
const MODULE_COUNT = 26;

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
    { href: rel(dir, '/faq.html'), label: 'FAQ' },
  ];
}

function buildModels(rng: Rng): DocPage[] {
  const paths: Array<{ path: string; label: string; section?: (typeof SECTIONS)[number]; index?: number }> = [
    { path: '/', label: 'Example Docs' },
  ];
  for (const s of SECTIONS) {
    paths.push({ path: `/${s.dir}/`, label: s.label, section: s });
    s.pages.forEach((p, i) =>
      paths.push({ path: `/${s.dir}/${p}.html`, label: titleCase(p), section: s, index: i }),
    );
  }
  paths.push({ path: '/faq.html', label: 'Frequently Asked Questions' });

  return paths.map(({ path, label, section, index }) => {
    const baseHref = path === BASE_HREF_PAGE ? `${DOCS}/api/` : undefined;
    const dir = baseHref ? '/api/' : path.slice(0, path.lastIndexOf('/') + 1);
    const link = (to: string, text: string): Link => ({ href: rel(dir, to), label: text });
    const nav = docNav(dir);
    let related: Link[] = [];
    let prev: Link | undefined;
    let next: Link | undefined;
    if (path === '/') {
      related = SECTIONS.map((s) => link(`/${s.dir}/index.html`, `${s.label} overview`));
      related.push({ href: `${DOCS}/faq.html`, label: 'FAQ (absolute link)' });
      related.push(link(MODULES_DIR, 'Module reference'));
    } else if (section && index === undefined) {
      related = section.pages.map((p) => link(`/${section.dir}/${p}.html`, titleCase(p)));
      related[1] = { ...related[1], href: related[1].href + '#options' };
    } else if (section && index !== undefined) {
      const ps = section.pages;
      if (index > 0)
        prev = link(`/${section.dir}/${ps[index - 1]}.html`, `Previous: ${titleCase(ps[index - 1])}`);
      if (index < ps.length - 1)
        next = link(`/${section.dir}/${ps[index + 1]}.html`, `Next: ${titleCase(ps[index + 1])}`);
      related = [link(`/${section.dir}/`, `Back to ${section.label}`)];
      if (baseHref)
        related.push(
          { href: 'client.html', label: 'API: Client' },
          { href: 'server.html', label: 'API: Server' },
        );
    }
    const noun = pick(rng, NOUNS);
    const model: PageModel = {
      lang: 'en',
      title: `${label} - Example Docs`,
      metaCharset: 'utf-8',
      baseHref,
      headExtra: '<link rel="stylesheet" href="/static/docs.css">',
      site: 'Example Docs',
      nav,
      heading: label,
      paragraphs: Array.from({ length: randInt(rng, 3, 6) }, () => paragraph(rng)),
      code: `$ dedup --config ${noun}.toml --threshold 0.${randInt(rng, 50, 95)} crawl-${randInt(rng, 1, 99)}.warc.gz`,
      relatedTitle: 'See also',
      related,
      prev,
      next,
      footer: `Example Docs. Page source: ${DOCS}${path}`,
    };
    return { path, label, model };
  });
}

/**
 * The module reference: a listing and MODULE_COUNT module pages, each in its own directory, drawn
 * from their own PRNG so that the pages above keep their text. Not mirrored.
 */
function buildModules(rng: Rng): DocPage[] {
  const names = shuffle(rng, NOUNS).slice(0, MODULE_COUNT).sort();
  const footer = (path: string): string => `Example Docs. Page source: ${DOCS}${path}`;
  const base = {
    lang: 'en' as const,
    metaCharset: 'utf-8',
    headExtra: '<link rel="stylesheet" href="/static/docs.css">',
    site: 'Example Docs',
  };
  const out: DocPage[] = [
    {
      path: MODULES_DIR,
      label: 'Modules',
      model: {
        ...base,
        title: 'Modules - Example Docs',
        nav: docNav(MODULES_DIR),
        heading: 'Modules',
        paragraphs: [paragraph(rng), paragraph(rng)],
        relatedTitle: 'All modules',
        related: names.map((n) => ({ href: `${n}/`, label: `${titleCase(n)} module` })),
        footer: footer(MODULES_DIR),
      },
    },
  ];
  names.forEach((name, i) => {
    const path = `${MODULES_DIR}${name}/`;
    const label = `${titleCase(name)} module`;
    const sibling = (k: number, what: string): Link => ({
      href: `../${names[k]}/`,
      label: `${what}: ${titleCase(names[k])} module`,
    });
    out.push({
      path,
      label,
      model: {
        ...base,
        title: `${label} - Example Docs`,
        nav: docNav(path),
        heading: label,
        paragraphs: Array.from({ length: randInt(rng, 3, 5) }, () => paragraph(rng)),
        code: `import { ${name} } from 'dedup/${name}'; // since 0.${randInt(rng, 1, 30)}`,
        relatedTitle: 'See also',
        related: [
          { href: '../', label: 'All modules' },
          { href: 'index.html', label: 'Permalink' },
        ],
        prev: i > 0 ? sibling(i - 1, 'Previous') : undefined,
        next: i < names.length - 1 ? sibling(i + 1, 'Next') : undefined,
        footer: footer(path),
      },
    });
  });
  return out;
}

export function buildDocs(rng: Rng, clock: Clock, extra: Rng): SiteBuild {
  const out: SiteBuild = { items: [], relations: [], notDup: [] };
  const pages = buildModels(rng);
  const modules = buildModules(extra);
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
  for (const p of [...pages, ...modules]) {
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
  out.notDup.push(
    { a: `${DOCS}/guide/install.html`, b: `${DOCS}/guide/configure.html`, kind: 'same-template' },
    {
      a: `${MIRROR}/guide/install.html`,
      b: `${DOCS}/guide/configure.html`,
      kind: 'same-template-other-host',
    },
    { a: `${DOCS}/tutorial/part-1.html`, b: `${DOCS}/tutorial/part-2.html`, kind: 'same-template' },
    { a: DOCS + modules[1].path, b: DOCS + modules[2].path, kind: 'same-template' },
  );
  return out;
}

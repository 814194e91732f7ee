// docs.example.test and its near-replica mirror.example-docs.test.

import { type Rng, pick, randHex, randInt } from './prng.ts';
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

interface DocPage {
  path: string;
  label: string;
  model: PageModel;
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
    const nav: Link[] = [
      { href: '/', label: 'Docs home' },
      ...SECTIONS.map((s) => link(`/${s.dir}/`, s.label)),
      link('/faq.html', 'FAQ'),
    ];
    let related: Link[] = [];
    let prev: Link | undefined;
    let next: Link | undefined;
    if (path === '/') {
      related = SECTIONS.map((s) => link(`/${s.dir}/index.html`, `${s.label} overview`));
      related.push({ href: `${DOCS}/faq.html`, label: 'FAQ (absolute link)' });
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

export function buildDocs(rng: Rng, clock: Clock): SiteBuild {
  const out: SiteBuild = { items: [], relations: [], notDup: [] };
  const pages = buildModels(rng);
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
  for (const p of pages) {
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
  );
  return out;
}

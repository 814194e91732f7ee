/**
 * Random worlds for DustBuster: sites nobody here tuned on, with their DUST known by construction.
 * Each world draws its sites (registrable domain, canonical host and scheme, file naming, sections,
 * articles with dates over several years) and, per site, a random subset of DUST kinds with random
 * spellings (parameter names, prefixes, index files, alias families). Every alias URL is made from a
 * base URL by one kind, so its canonical URL (the base's, recursively) and the rule a person would
 * write for it are known. Pages carry MinHash sketches of feature sets: a site template shared by its
 * pages, the page's own features, and for print views and mirror banners a near-duplicate variant.
 *
 * Noise that is not DUST: pagination and language versions (different documents under URLs that
 * differ in one token), error pages. Used by `npm run bench:dust-worlds` and the DUST tests.
 *
 * What real crawls do that a tidy world would not (drawn from a second stream, so the first draws of
 * a seed stay as they were): several sites on one address told apart by port (127.0.0.1:28431, :28432,
 * …, as a test server serves them); a rule that holds in one section of a site only (the one
 * directory whose server also answers the name without its extension); mirrors whose pages not
 * mirrored answer 301 to the original; and links — the site links its canonical URLs most, but an
 * alias such as dir/index.html is linked too (a sitemap beside the home page's dir/).
 */
import type { DustRecord } from '../../src/core/dust/types';
import { minhashSignature } from '../../src/core/signatures/minhash';
import { pick, randHex, randInt, seededRandom, shuffle } from './prng.ts';

export const DUST_KINDS = [
  'session-path',
  'session-query',
  'tracking',
  'view',
  'print',
  'date-permalink',
  'alias-family',
  'index-file',
  'extensionless',
  'trailing-slash',
  'case',
  'www',
  'scheme',
  'mirror-prefix',
  'mirror-host',
  'mirror-port',
  'redirect',
] as const;
export type DustKind = (typeof DUST_KINDS)[number];

/** A rule as a person would write it, with the aliases it makes. */
export interface TrueRule {
  id: string;
  site: string;
  kind: DustKind;
  /** A reading of the rule (not a DustBuster spelling). */
  spelling: string;
}

export interface WorldUrl {
  url: string;
  /** The page this URL is an alias of, with every DUST undone; itself for a canonical page. */
  canonical: string;
  /** The true rule that made this alias from its base; '' for a canonical page or noise. */
  rule: string;
  /** The URL this alias was made from by that rule; '' for a canonical page or noise. */
  base: string;
  status: number;
}

export interface World {
  seed: number;
  records: DustRecord[];
  urls: WorldUrl[];
  rules: TrueRule[];
  sites: { domain: string; origin: string; kinds: DustKind[] }[];
}

const WORDS = `alpha anchor apple atlas basin beacon birch bridge cable canyon cedar cinder cobalt comet
  copper coral crane delta dune ember falcon fern fjord flint forge garnet glacier granite harbor hazel
  heron indigo iris jasper juniper kelp lagoon lantern larch lotus maple marble meadow mesa mist nectar
  nova oak onyx orchid otter pebble pine plume prairie quartz quill raven reef ridge river saffron sage
  shale sierra slate spruce summit tide timber topaz tundra umber valley velvet willow zephyr`
  .trim()
  .split(/\s+/);
const SECTIONS =
  `docs guide manual help wiki blog news kb reference tutorials api faq support learn library howto`
    .trim()
    .split(/\s+/);
const TLDS = ['com', 'org', 'net', 'io', 'de', 'co.uk', 'fr', 'info'];
const SESSION_NAMES = ['jsessionid', 'sid', 'sessionid', 'phpsessid', 'sess', 's', 'token', 'visitor'];
const TRACKING = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'ref',
  'src',
  'from',
  'fbclid',
  'gclid',
  'mc_cid',
  'share',
  'via',
  'campaign',
];
const VIEWS: [string, string[]][] = [
  ['view', ['full', 'all', 'classic']],
  ['layout', ['wide', 'narrow']],
  ['theme', ['dark', 'light']],
  ['mode', ['desktop', 'mobile']],
  ['display', ['grid', 'list']],
];
const INDEX_FILES = ['index.html', 'index.php', 'default.aspx', 'index.htm', 'index.shtml'];
const FAMILY = ['php', 'html', 'amp', 'p', 'dir'] as const;
const NOUNS = ['article', 'story', 'post', 'item', 'node', 'entry', 'news', 'doc'];

/** Feature id spaces of the documents' sketches (site template, page's own, banner). */
const docFeatures = (doc: number, n: number): number[] =>
  Array.from({ length: n }, (_, k) => (Math.imul(doc + 1, 0x9e3779b1) ^ Math.imul(k + 1, 0x85ebca6b)) >>> 0);

interface Doc {
  id: number;
  own: number;
  site: number;
  variant: 'page' | 'print' | 'banner';
}

export function generateWorld(seed: number, scale = 1, sites?: number): World {
  const rng = seededRandom(seed);
  // The second stream: what the web adds (ports, one-section rules, mirror redirects, links).
  const web = seededRandom(seed ^ 0x2545f491);
  const byPort = web() < 0.3;
  const address = `${randInt(web, 10, 192)}.${randInt(web, 0, 255)}.${randInt(web, 0, 255)}.${randInt(web, 1, 254)}`;
  const firstPort = randInt(web, 1025, 60000);
  const world: World = { seed, records: [], urls: [], rules: [], sites: [] };
  const drawn = randInt(rng, 1, 3);
  const nSites = sites ?? drawn;
  let nextDoc = 1;
  const templates: number[] = [];
  const docByUrl = new Map<string, Doc | null>();
  const canonOf = new Map<string, string>();
  const sketches = new Map<string, Uint32Array>();
  const seen = new Set<string>();

  const emit = (
    url: string,
    canonical: string,
    rule: string,
    doc: Doc | null,
    status = 200,
    to = '',
    base = '',
  ) => {
    if (seen.has(url)) return;
    seen.add(url);
    world.urls.push({ url, canonical, rule, base, status });
    docByUrl.set(url, doc);
    canonOf.set(url, canonical);
    // The site links its canonical URLs most; aliases now and then (a sitemap's dir/index.html).
    const inlinks = url === canonical ? randInt(web, 2, 8) : randInt(web, 0, 2);
    if (!doc) {
      world.records.push({
        url,
        status,
        sizeMin: 180,
        sizeMax: 180,
        inlinks,
        ...(to ? { redirectTo: to } : {}),
      });
      return;
    }
    const key = `${doc.id}:${doc.variant}`;
    let sketch = sketches.get(key);
    const tmpl = templates[doc.site];
    if (!sketch) {
      const own = docFeatures(doc.id * 7, doc.own);
      const t = docFeatures(1e6 + doc.site * 3, tmpl);
      const f =
        doc.variant === 'print'
          ? [...own, ...t.slice(0, Math.floor(tmpl * 0.8))]
          : doc.variant === 'banner'
            ? [...own, ...t, ...docFeatures(2e6 + doc.site, 3)]
            : [...own, ...t];
      sketch = minhashSignature(Uint32Array.from(f), { permutations: 128, seed: 1 });
      sketches.set(key, sketch);
    }
    const size = (doc.own + tmpl) * 31 + (doc.variant === 'page' ? 0 : doc.variant === 'print' ? -40 : 90);
    world.records.push({
      url,
      status,
      sizeMin: size,
      sizeMax: size,
      sketch,
      fingerprint: `w${seed}-${key}`,
      inlinks,
    });
  };

  for (let s = 0; s < nSites; s++) {
    const named = `${pick(rng, WORDS)}${pick(rng, WORDS)}.${pick(rng, TLDS)}`;
    const drawnScheme = rng() < 0.6 ? 'https' : 'http';
    const drawnHost = rng() < 0.5 ? `www.${named}` : named;
    // Sites on one address by port: no www., no sub-domain mirror; a mirror on another port.
    const domain = byPort ? `${address}:${firstPort + s}` : named;
    const scheme = byPort ? 'http' : drawnScheme;
    const host = byPort ? domain : drawnHost;
    const origin = `${scheme}://${host}`;
    const kinds = shuffle(rng, DUST_KINDS)
      .slice(0, randInt(rng, 3, 9))
      .filter((k) => !byPort || (k !== 'www' && k !== 'mirror-host'));
    const has = (k: DustKind) => kinds.includes(k);
    world.sites.push({ domain, origin, kinds });
    templates[s] = randInt(rng, 20, 120);
    const ext = pick(rng, ['.html', '.html', '', '.php', '.htm']);
    const newDoc = (): Doc => ({ id: nextDoc++, own: randInt(rng, 40, 400), site: s, variant: 'page' });
    const rule = (kind: DustKind, spelling: string): string => {
      const id = `${domain}:${kind}:${world.rules.filter((r) => r.site === domain && r.kind === kind).length + 1}`;
      world.rules.push({ id, site: domain, kind, spelling });
      return id;
    };

    // Canonical pages: sections of named pages (with directory index pages), articles.
    const pages: { url: string; doc: Doc; dir: boolean; name: string; section: string }[] = [];
    const sections = shuffle(rng, SECTIONS).slice(0, randInt(rng, 2, 5));
    const caseDir = has('case') ? pick(rng, sections) : '';
    for (const sec of sections) {
      const subdirs =
        rng() < 0.5
          ? ['']
          : [
              '',
              ...shuffle(rng, WORDS)
                .slice(0, randInt(rng, 1, 3))
                .map((w) => `${w}/`),
            ];
      for (const sub of subdirs) {
        const dirUrl = `${origin}/${sec}/${sub}`;
        pages.push({ url: dirUrl, doc: newDoc(), dir: true, name: '', section: sec });
        const n = Math.round(randInt(rng, 3, 40) * scale);
        const names = new Set<string>();
        for (let k = 0; k < n; k++) {
          const name =
            rng() < 0.5
              ? pick(rng, WORDS)
              : shuffle(rng, WORDS)
                  .slice(0, randInt(rng, 2, 4))
                  .join('-');
          if (names.has(name)) continue;
          names.add(name);
          pages.push({ url: `${dirUrl}${name}${ext}`, doc: newDoc(), dir: false, name, section: sec });
        }
      }
    }
    // Articles: an id, a date over several years, a slug; one canonical spelling per site.
    const articles: { id: string; y: number; m: number; d: number; slug: string; url: string; doc: Doc }[] =
      [];
    const noun = pick(rng, NOUNS);
    const idParam = pick(rng, ['id', 'aid', `${noun[0]}id`]);
    const canonForm = pick(rng, FAMILY);
    const articleUrl = (form: (typeof FAMILY)[number], id: string): string =>
      form === 'php'
        ? `${origin}/${noun}.php?${idParam}=${id}`
        : form === 'html'
          ? `${origin}/${noun}s/${id}.html`
          : form === 'amp'
            ? `${origin}/amp/${id}`
            : form === 'p'
              ? `${origin}/?p=${id}`
              : `${origin}/${noun}/${id}/`;
    // A daily blog: one article per date, consecutive days over years, each at /YYYY/MM/DD/N/ (the
    // date-permalink variant whose every date's rule has one instance). Drawn from a generator of its
    // own, so the worlds without it stay what they were for their seed.
    const side = seededRandom(Math.imul(seed, 31) + s + 0x2545f491);
    const daily = has('date-permalink') && side() < 0.4;
    const firstDay = Date.UTC(randInt(side, 2008, 2020), 0, 1) + randInt(side, 0, 364) * 86_400_000;
    let nextId = randInt(side, 10, 5000);
    if (has('date-permalink') || has('alias-family') || has('redirect') || rng() < 0.5) {
      const drawn = randInt(rng, 30, 250);
      const n = Math.round((daily ? randInt(side, 400, 1200) : drawn) * scale);
      const ids = new Set<string>();
      const slugs = new Set<string>();
      for (let k = 0; k < n; k++) {
        const id = daily
          ? String((nextId += randInt(side, 1, 3)))
          : String(randInt(rng, 10, 10 ** randInt(rng, 3, 6)));
        if (ids.has(id)) continue;
        ids.add(id);
        const day = new Date(firstDay + articles.length * 86_400_000);
        const a = {
          id,
          y: daily ? day.getUTCFullYear() : randInt(rng, 2009, 2025),
          m: daily ? day.getUTCMonth() + 1 : randInt(rng, 1, 12),
          d: daily ? day.getUTCDate() : randInt(rng, 1, 28),
          slug: shuffle(rng, WORDS)
            .slice(0, randInt(rng, 2, 5))
            .join('-'),
          url: articleUrl(canonForm, id),
          doc: newDoc(),
        };
        // One page per slug: a slug two articles shared would make them one URL.
        if (slugs.has(a.slug)) continue;
        slugs.add(a.slug);
        articles.push(a);
        pages.push({ url: a.url, doc: a.doc, dir: false, name: id, section: '' });
      }
    }
    for (const p of pages) emit(p.url, p.url, '', p.doc);

    // Noise: pagination of sections and language versions (different documents), errors.
    for (const sec of sections)
      for (let k = 2; k <= randInt(rng, 1, 8); k++)
        emit(`${origin}/${sec}/?page=${k}`, `${origin}/${sec}/?page=${k}`, '', newDoc());
    if (rng() < 0.5) {
      const langs = shuffle(rng, ['en', 'de', 'fr', 'es', 'it']).slice(0, randInt(rng, 2, 3));
      for (const w of shuffle(rng, WORDS).slice(0, randInt(rng, 5, 25)))
        for (const l of langs) {
          const url = `${origin}/${l}/${w}${ext}`;
          emit(url, url, '', newDoc());
        }
    }
    for (let k = 0; k < randInt(rng, 0, 10); k++) {
      const url = `${origin}/${pick(rng, WORDS)}-missing${ext}`;
      emit(url, url, '', null, 404);
    }

    const share = () => 0.25 + 0.65 * rng();
    const sample = <T>(items: readonly T[]): T[] => {
      const p = share();
      return items.filter(() => rng() < p);
    };
    /** An alias of base made by rule; its canonical is the base's. */
    const alias = (url: string, base: string, id: string, doc: Doc | null, status = 200, to = '') => {
      const canon = canonOf.get(base) || base;
      emit(url, canon, id, doc, status, to, base);
    };
    const filePages = pages.filter((p) => !p.dir);
    /**
     * A mirror at `at` (an origin, or an origin and a prefix) whose pages not mirrored answer 301 to
     * the original: the crawler met links to some of them and followed them there.
     */
    const mirrorRedirects = (at: string, mirrored: readonly { url: string }[], id: string) => {
      const kept = new Set(mirrored.map((p) => p.url));
      for (const p of pages)
        if (!kept.has(p.url) && web() < 0.4)
          alias(`${at}${p.url.slice(origin.length)}`, p.url, id, null, 301, p.url);
    };

    if (has('alias-family') && articles.length > 0) {
      for (const form of shuffle(
        rng,
        FAMILY.filter((f) => f !== canonForm),
      ).slice(0, randInt(rng, 1, 2))) {
        const id = rule('alias-family', `${articleUrl(form, '{id}')} → ${articleUrl(canonForm, '{id}')}`);
        for (const a of sample(articles)) alias(articleUrl(form, a.id), a.url, id, a.doc);
      }
    }
    if (has('date-permalink') && articles.length > 0) {
      const drawnStyle = randInt(rng, 0, 3);
      const style = daily ? 0 : drawnStyle;
      const padding = rng() < 0.7;
      const two = (x: number) => (padding ? String(x).padStart(2, '0') : String(x));
      const form = ['/{y}/{m}/{d}/{id}/', '/{y}/{m}/{id}', '/{y}/{m}/{d}/{slug}/', '/{y}/{slug}'][style];
      // Slug permalinks carry no id: their canonical page must carry the slug to be a rule.
      const slugCanon = style >= 2;
      const id = rule(
        'date-permalink',
        `${form} → ${slugCanon ? `/${noun}s/{slug}${ext}` : articleUrl(canonForm, '{id}')}${daily ? ' (one a day)' : ''}`,
      );
      for (const a of sample(articles)) {
        const path = form
          .replace('{y}', String(a.y))
          .replace('{m}', two(a.m))
          .replace('{d}', two(a.d))
          .replace('{id}', a.id)
          .replace('{slug}', a.slug);
        if (slugCanon) {
          const base = `${origin}/${noun}s/${a.slug}${ext}`;
          emit(base, a.url, '', a.doc);
          alias(`${origin}${path}`, base, id, a.doc);
        } else alias(`${origin}${path}`, a.url, id, a.doc);
      }
    }
    if (has('redirect') && articles.length > 0) {
      const prefix = pick(rng, ['go', 'r', 'node', 'link', 'permalink']);
      const id = rule('redirect', `/${prefix}/{id} → 301 ${articleUrl(canonForm, '{id}')}`);
      for (const a of sample(articles)) alias(`${origin}/${prefix}/${a.id}`, a.url, id, null, 301, a.url);
    }
    if (has('index-file')) {
      const file = pick(rng, INDEX_FILES);
      const id = rule('index-file', `/${file} → /`);
      for (const p of sample(pages.filter((q) => q.dir))) alias(`${p.url}${file}`, p.url, id, p.doc);
      // The site root too.
      emit(`${origin}/`, `${origin}/`, '', newDoc());
      alias(`${origin}/${file}`, `${origin}/`, id, docByUrl.get(`${origin}/`) ?? null);
    }
    if (has('extensionless')) {
      // Half the time one section's server alone answers both spellings: the rule holds there only.
      const only = web() < 0.5 ? pick(web, sections) : '';
      const where = filePages.filter((q) => q.section && (only === '' || q.section === only));
      if (ext === '') {
        const e = pick(rng, ['.html', '.htm', '.php']);
        const id = rule('extensionless', `{name}${e} → {name}${only ? ` in /${only}/` : ''}`);
        for (const p of sample(where)) alias(`${p.url}${e}`, p.url, id, p.doc);
      } else {
        const id = rule('extensionless', `{name} → {name}${ext}${only ? ` in /${only}/` : ''}`);
        for (const p of sample(where)) alias(p.url.slice(0, -ext.length), p.url, id, p.doc);
      }
    }
    if (has('trailing-slash')) {
      const id = rule('trailing-slash', `{name}/ → {name}`);
      for (const p of sample(filePages.filter((q) => q.section))) alias(`${p.url}/`, p.url, id, p.doc);
    }
    if (has('case') && caseDir) {
      const cap = caseDir[0].toUpperCase() + caseDir.slice(1);
      const id = rule('case', `/${cap}/ → /${caseDir}/`);
      for (const p of sample(pages.filter((q) => q.section === caseDir)))
        alias(p.url.replace(`/${caseDir}/`, `/${cap}/`), p.url, id, p.doc);
    }
    if (has('print')) {
      const style = randInt(rng, 0, 2);
      const id = rule(
        'print',
        ['/print/{path} → /{path}', '{path}?print=1 → {path}', '{path}/print → {path}'][style],
      );
      for (const p of sample(filePages)) {
        const u = new URL(p.url);
        const url =
          style === 0
            ? `${origin}/print${u.pathname}${u.search}`
            : style === 1
              ? `${p.url}${u.search ? '&' : '?'}print=1`
              : `${origin}${u.pathname.replace(/\/$/, '')}/print${u.search}`;
        alias(url, p.url, id, { ...p.doc, variant: 'print' });
      }
    }
    const hosts: [DustKind, string, string][] = [];
    if (has('www')) hosts.push(['www', host.startsWith('www.') ? domain : `www.${domain}`, scheme]);
    if (has('scheme')) hosts.push(['scheme', host, scheme === 'https' ? 'http' : 'https']);
    if (has('mirror-host'))
      hosts.push(['mirror-host', `${pick(rng, ['mirror', 'm', 'old', 'docs2', 'eu'])}.${domain}`, scheme]);
    if (has('mirror-port')) {
      const port = pick(rng, ['8080', '8443', '8000', '81']);
      hosts.push(['mirror-port', byPort ? `${address}:${firstPort + 100 + s}` : `${host}:${port}`, scheme]);
    }
    for (const [kind, h, sch] of hosts) {
      const o = `${sch}://${h}`;
      const id = rule(kind, `${o}/ → ${origin}/`);
      // www and scheme aliases are often redirects to the canonical host.
      const redirects = (kind === 'www' || kind === 'scheme') && rng() < 0.5;
      const mirrored = sample(pages);
      if (kind.startsWith('mirror') && web() < 0.5) mirrorRedirects(o, mirrored, id);
      for (const p of mirrored) {
        const url = o + p.url.slice(origin.length);
        if (redirects) alias(url, p.url, id, null, 301, p.url);
        else
          alias(
            url,
            p.url,
            id,
            kind === 'mirror-host' && rng() < 0.3 ? { ...p.doc, variant: 'banner' } : p.doc,
          );
      }
    }
    if (has('mirror-prefix')) {
      const prefix = pick(rng, ['mirror', 'archive/v1', 'old', 'copy', 'static/site', 'v2']);
      const id = rule('mirror-prefix', `/${prefix}/{path} → /{path}`);
      const sec = pick(rng, sections);
      const mirrored = sample(pages.filter((q) => q.section === sec || rng() < 0.3));
      if (web() < 0.5) mirrorRedirects(`${origin}/${prefix}`, mirrored, id);
      for (const p of mirrored) alias(`${origin}/${prefix}${p.url.slice(origin.length)}`, p.url, id, p.doc);
    }

    // Parameters last: they go on canonical pages and on aliases alike (compositions).
    const targets = () => world.urls.filter((u) => u.status === 200 && u.url.startsWith(origin));
    const docFor = (u: WorldUrl): Doc | null => docByUrl.get(u.url) ?? null;
    const addParam = (url: string, piece: string) => {
      const at = url.indexOf('?');
      if (at < 0) return `${url}?${piece}`;
      return rng() < 0.5 ? `${url}&${piece}` : `${url.slice(0, at + 1)}${piece}&${url.slice(at + 1)}`;
    };
    if (has('session-path')) {
      const name = pick(rng, SESSION_NAMES);
      const upper = rng() < 0.5;
      const id = rule('session-path', `;${name}=… → (dropped)`);
      for (const u of sample(targets().filter((x) => !x.url.includes('?')))) {
        const v = randHex(rng, pick(rng, [12, 16, 32]));
        alias(`${u.url};${name}=${upper ? v.toUpperCase() : v}`, u.url, id, docFor(u));
      }
    }
    if (has('session-query')) {
      // Never the name the site's article ids go by (story.php?sid=N): a server could not tell them apart.
      let name = pick(rng, SESSION_NAMES);
      while (name === idParam) name = pick(rng, SESSION_NAMES);
      const id = rule('session-query', `${name}=… → (dropped)`);
      for (const u of sample(targets()))
        alias(addParam(u.url, `${name}=${randHex(rng, 16)}`), u.url, id, docFor(u));
    }
    if (has('tracking')) {
      for (const name of shuffle(rng, TRACKING).slice(0, randInt(rng, 1, 3))) {
        const values = Array.from({ length: randInt(rng, 3, 6) }, () => pick(rng, WORDS));
        const id = rule('tracking', `${name}=… → (dropped)`);
        for (const u of sample(targets()))
          alias(addParam(u.url, `${name}=${pick(rng, values)}`), u.url, id, docFor(u));
      }
    }
    if (has('view')) {
      const [name, values] = pick(rng, VIEWS);
      const id = rule('view', `${name}=… → (dropped)`);
      for (const u of sample(targets().filter((x) => x.rule === '')))
        alias(addParam(u.url, `${name}=${pick(rng, values)}`), u.url, id, docFor(u));
    }
  }
  return world;
}

/**
 * The world as an access log (Combined Log Format): one GET per URL (two for some, with other sizes
 * in a small range), its status and size, a referer from the same site (the site's root or a page of
 * it, as a visitor's click), and with `vhost` Apache's vhost_combined lead field (`%v:%p`).
 */
export function worldAccessLog(world: World, vhost: boolean): string {
  const rng = seededRandom(world.seed ^ 0x5bd1e995);
  const byOrigin = new Map<string, string[]>();
  for (const u of world.urls) {
    const o = new URL(u.url).origin;
    byOrigin.set(o, [...(byOrigin.get(o) ?? []), u.url]);
  }
  const lines: string[] = [];
  world.records.forEach((r, k) => {
    const u = new URL(r.url);
    const peers = byOrigin.get(u.origin) ?? [r.url];
    const referer = rng() < 0.8 ? pick(rng, peers) : 'https://www.search.example/q?x=1';
    const size = r.sizeMin === undefined || r.sizeMin < 0 ? 0 : r.sizeMin;
    const port = u.port || (u.protocol === 'https:' ? '443' : '80');
    const t = new Date(Date.UTC(2024, 0, 15, 10, 0, k % 60));
    const day = String(t.getUTCDate()).padStart(2, '0');
    const stamp = `${day}/Jan/2024:10:${String(Math.floor(k / 60) % 60).padStart(2, '0')}:${String(k % 60).padStart(2, '0')} +0000`;
    const lead = vhost ? `${u.hostname}:${port} ` : '';
    const hits = rng() < 0.2 ? 2 : 1;
    for (let h = 0; h < hits; h++)
      lines.push(
        `${lead}192.0.2.${1 + (k % 200)} - - [${stamp}] "GET ${u.pathname}${u.search} HTTP/1.1" ${r.status ?? 200} ${size + h} "${referer}" "Mozilla/5.0 (world)"`,
      );
  });
  return lines.join('\n') + '\n';
}

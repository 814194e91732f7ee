// www.example-news.test: stories, DUST aliases, reposts, a hostile page and
// a few non-HTML / error responses.

import { type Rng, shuffle } from './prng.ts';
import { type Link, type PageModel, esc } from './sample-html.ts';
import {
  type Clock,
  type CrawlItem,
  type SiteBuild,
  htmlItem,
  plainItem,
  titleCase,
  truncateWords,
} from './sample-crawl.ts';
import { type Pool, type Section } from './sample-text.ts';
import { personName } from './sample-names.ts';

export const NEWS = 'http://www.example-news.test';
const SERVER = 'Apache/2.4.58 (Unix)';
const FIRST = 1001;
const COUNT = 159;
/**
 * Site sections, each fed by chapters of the Debian Reference: a story's section is the one its text
 * comes from, so a section listing lists stories about one subject, as on a real site.
 */
const SECTIONS: Array<{ dir: string; chapters: string[] }> = [
  { dir: 'basics', chapters: ['pr01', 'ch01', 'ch08', 'apa'] },
  { dir: 'packages', chapters: ['ch02', 'ch12'] },
  { dir: 'system', chapters: ['ch03', 'ch04', 'ch09'] },
  { dir: 'network', chapters: ['ch05', 'ch06', 'ch07'] },
  { dir: 'data', chapters: ['ch10', 'ch11'] },
];
const sectionOf = (t: Section): string => {
  const s = SECTIONS.find((x) => x.chapters.includes(t.chapter));
  if (!s) throw new Error(`no news section for chapter ${t.chapter}`);
  return s.dir;
};
/** Attribution of the borrowed text, in every page's footer (GPL-2+ asks for the notice to be kept). */
const CREDIT =
  'Article text from the Debian Reference by Osamu Aoki and contributors, GNU GPL version 2 or later.';
const FOOTER_LINKS: Link[] = [
  { href: '/about/', label: 'About us' },
  { href: '/contact/', label: 'Contact' },
  { href: '/privacy/', label: 'Privacy' },
];
const ids = (from: number, to: number): number[] => Array.from({ length: to - from + 1 }, (_, i) => from + i);

// Which stories get which alias / repost treatment. Each DUST kind has 30+ instances so that a rule
// miner working on half of the URL list (DustBuster: support >= 3 pairs with both URLs in its half)
// still sees it; the sets are disjoint so no story is crawled under two different aliases.
const ID_ALIAS = [...ids(1001, 1008), ...ids(1041, 1068)];
const UTM = [...ids(1009, 1011), ...ids(1069, 1097)];
const REF_NAV = [...ids(1012, 1014), ...ids(1098, 1126)];
const SESSION = [...ids(1015, 1017), ...ids(1127, 1159)];
/** Session ids the crawler picked up: one per story, a few distinct values. */
const SESSION_IDS = ['4015', '4016', '4017'];
const sessionOf = (id: number): string => SESSION_IDS[SESSION.indexOf(id) % SESSION_IDS.length];
const PRINT = ids(1018, 1021);
const REPOSTS: Array<[number, number, string]> = [
  [2001, 1022, 'repost-truncated'],
  [2002, 1023, 'repost-truncated'],
  [2003, 1024, 'repost-appended'],
  [2004, 1025, 'repost-appended'],
  [2005, 1026, 'repost-reordered'],
  [2006, 1027, 'repost-reordered'],
  [2007, 1028, 'repost-byline'],
  [2008, 1029, 'repost-byline'],
];
const CHUNKED_STORY = 1040;
export const REVISIT_STORY = 1001;

interface Story {
  id: number;
  section: string;
  title: string;
  byline: string;
  paragraphs: string[];
  related: number[];
}

/** Repost sources: shuffling and truncating need a few paragraphs to work on. */
const REPOST_SOURCES = new Set(REPOSTS.map(([, src]) => src));

const TRACKING = '?utm_source=homepage';

function nav(session?: string): Link[] {
  const q = session ? `?sessionid=${session}` : '';
  return [
    { href: `/${q}`, label: 'Home' },
    ...SECTIONS.map((s) => ({ href: `/${s.dir}/${q}`, label: titleCase(s.dir) })),
  ];
}

function storyModel(
  s: Story,
  titleOf: (id: number) => string,
  o: { session?: string; print?: boolean } = {},
): PageModel {
  const q = o.session ? `?sessionid=${o.session}` : '';
  const related: Link[] = s.related.map((id) => ({ href: `/story_${id}${q}`, label: titleOf(id) }));
  if (PRINT.includes(s.id)) related.push({ href: `/print/story_${s.id}`, label: 'Print this story' });
  return {
    lang: 'en',
    title: `${s.title} | Example News`,
    headExtra: '<link rel="stylesheet" href="/static/news.css">',
    site: 'Example News',
    nav: o.print ? [] : nav(o.session),
    heading: s.title,
    byline: s.byline,
    paragraphs: s.paragraphs,
    relatedTitle: 'More stories',
    related: o.print ? [] : related,
    footerLinks: o.print ? [] : FOOTER_LINKS,
    footer: o.print ? `Printed from ${NEWS}/story_${s.id}. ${CREDIT}` : `Example News. ${CREDIT}`,
  };
}

function listing(title: string, links: Link[], intro: string): PageModel {
  return {
    lang: 'en',
    title: `${title} | Example News`,
    headExtra: '<link rel="stylesheet" href="/static/news.css">',
    site: 'Example News',
    nav: nav(),
    heading: title,
    paragraphs: [intro],
    relatedTitle: 'Latest',
    related: links,
    footerLinks: FOOTER_LINKS,
    footer: `Example News. ${CREDIT}`,
  };
}

/** `text`: sections of the Debian Reference (English), one per story and a few for listings. */
export function buildNews(rng: Rng, clock: Clock, text: Pool): SiteBuild {
  const out: SiteBuild = { items: [], relations: [], notDup: [] };
  const add = (item: CrawlItem, of?: string): void => {
    out.items.push(item);
    if (of) out.relations.push({ url: item.url, of });
  };
  const page = (path: string, model: PageModel, kind: string, of?: string): void =>
    add(htmlItem(NEWS + path, model, { server: SERVER, date: clock.next(), kind }), of);

  const stories = new Map<number, Story>();
  for (let i = 0; i < COUNT; i++) {
    const id = FIRST + i;
    // Print versions drop the navigation: on a long story the rest stays a near-replica (resemblance
    // >= 0.8, what DustBuster's validation asks), as on real sites.
    const t = PRINT.includes(id)
      ? text.take((x) => x.size >= 300, 'section of 300+ words')
      : REPOST_SOURCES.has(id)
        ? text.take((x) => x.paragraphs.length >= 3, 'section of 3+ paragraphs')
        : text.take();
    const pick3 = [1, 2, 5].map((d) => FIRST + ((i + d) % COUNT));
    stories.set(id, {
      id,
      section: sectionOf(t),
      title: t.title,
      byline: `By ${personName(rng)} | 15 January 2024, ${String(6 + (i % 12)).padStart(2, '0')}:${String((i * 7) % 60).padStart(2, '0')}`,
      paragraphs: t.paragraphs,
      related: pick3,
    });
  }
  const titleOf = (id: number): string => stories.get(id)?.title ?? `Story ${id}`;
  /** One paragraph of real text for a listing's introduction. */
  const blurb = (): string => text.take().paragraphs[0];
  const story = (id: number): Story => {
    const s = stories.get(id);
    if (!s) throw new Error(`no story ${id}`);
    return s;
  };

  add(
    plainItem(
      NEWS + '/robots.txt',
      clock.next(),
      SERVER,
      'robots',
      'text/plain',
      'User-agent: *\nDisallow: /private/\nDisallow: /search\n\nSitemap: http://www.example-news.test/sitemap.xml\n',
    ),
  );

  // Home page: the link forms here are how the crawler found the aliases.
  const homeLinks: Link[] = [];
  for (const id of ids(1001, 1020)) {
    let href = `story_${id}`;
    if (ID_ALIAS.includes(id)) href = `story?id=${id}`;
    else if (UTM.includes(id)) href = `story_${id}${TRACKING}`;
    else if (SESSION.includes(id)) href = `story_${id}?sessionid=${sessionOf(id)}`;
    homeLinks.push({ href, label: story(id).title });
  }
  // "More stories": the later stories, linked in the alias form the crawler found them under.
  for (const id of ids(1021, FIRST + COUNT - 1)) {
    let href: string;
    if (ID_ALIAS.includes(id)) href = `story?id=${id}`;
    else if (UTM.includes(id)) href = `story_${id}${TRACKING}`;
    else if (SESSION.includes(id)) href = `story_${id}?sessionid=${sessionOf(id)}`;
    else continue;
    homeLinks.push({ href, label: story(id).title });
  }
  homeLinks.push(
    { href: 'HTTP://WWW.Example-News.TEST:80/story_1030', label: story(1030).title },
    { href: 'story_1031#comments', label: `${story(1031).title} (comments)` },
    { href: '/old/story_1005', label: 'Archive: story 1005' },
    { href: '/story_9999', label: 'A story that was removed' },
    { href: '/comments/xss-test.html', label: 'Reader comments' },
    { href: 'http://docs.example.test/guide/', label: 'Developer documentation' },
  );
  page('/', listing('Front Page', homeLinks, blurb()), 'home');

  for (const { dir: section } of SECTIONS) {
    const links: Link[] = [];
    for (const s of stories.values()) {
      if (s.section !== section) continue;
      const q = REF_NAV.includes(s.id) ? '?ref=nav' : '';
      links.push({ href: `../story_${s.id}${q}`, label: s.title });
    }
    for (const [rid, src] of REPOSTS) {
      if (story(src).section === section)
        links.push({ href: `../story_${rid}`, label: `${story(src).title} (update)` });
    }
    page(`/${section}/`, listing(titleCase(section), links, blurb()), 'section');
  }

  for (const s of stories.values()) {
    const url = `/story_${s.id}`;
    if (s.id === CHUNKED_STORY) {
      add({
        ...htmlItem(NEWS + url, storyModel(s, titleOf), {
          server: SERVER,
          date: clock.next(),
          kind: 'story',
        }),
        chunked: true,
      });
      continue;
    }
    page(url, storyModel(s, titleOf), 'story');
    if (ID_ALIAS.includes(s.id))
      page(`/story?id=${s.id}`, storyModel(s, titleOf), 'story-id-alias', NEWS + url);
    if (UTM.includes(s.id)) page(`${url}${TRACKING}`, storyModel(s, titleOf), 'story-tracking', NEWS + url);
    if (REF_NAV.includes(s.id)) page(`${url}?ref=nav`, storyModel(s, titleOf), 'story-tracking', NEWS + url);
    if (SESSION.includes(s.id)) {
      const sid = sessionOf(s.id);
      page(`${url}?sessionid=${sid}`, storyModel(s, titleOf, { session: sid }), 'story-session', NEWS + url);
    }
    if (PRINT.includes(s.id))
      page(`/print/story_${s.id}`, storyModel(s, titleOf, { print: true }), 'story-print', NEWS + url);
  }

  for (const [rid, src, kind] of REPOSTS) {
    const s = story(src);
    let paragraphs = s.paragraphs;
    let byline = s.byline;
    if (kind === 'repost-truncated') paragraphs = truncateWords(s.paragraphs, 0.6);
    if (kind === 'repost-appended') paragraphs = [...s.paragraphs, blurb()];
    if (kind === 'repost-reordered') {
      do paragraphs = shuffle(rng, s.paragraphs);
      while (paragraphs.every((p, i) => p === s.paragraphs[i]));
    }
    if (kind === 'repost-byline') byline = `By ${personName(rng)} | 16 January 2024, 08:30`;
    page(
      `/story_${rid}`,
      storyModel({ ...s, id: rid, byline, paragraphs }, titleOf),
      kind,
      `${NEWS}/story_${src}`,
    );
  }

  // Hostile page: title and text are literal markup; the head has a real script.
  const evil = '<script>alert(1)</script> <img src=x onerror=alert(1)>';
  const hostile: PageModel = {
    ...listing('Reader comments', [{ href: 'javascript:alert(1)', label: 'click me' }], evil),
    title: evil,
    heading: 'Reader comments',
    headExtra: '<script>alert(1)</script>\n<link rel="stylesheet" href="/static/news.css">',
  };
  page('/comments/xss-test.html', hostile, 'hostile');

  const notFound =
    '<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>404 Not Found</title>\n</head><body>\n' +
    '<h1>Not Found</h1>\n<p>The requested URL /story_9999 was not found on this server.</p>\n</body></html>\n';
  add({
    ...plainItem(
      NEWS + '/story_9999',
      clock.next(),
      SERVER,
      'not-found',
      'text/html; charset=iso-8859-1',
      notFound,
      404,
    ),
    title: '404 Not Found',
  });
  const moved =
    `<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 2.0//EN">\n<html><head>\n<title>301 Moved Permanently</title>\n</head><body>\n` +
    `<h1>Moved Permanently</h1>\n<p>The document has moved <a href="${esc(NEWS)}/story_1005">here</a>.</p>\n</body></html>\n`;
  add({
    ...plainItem(
      NEWS + '/old/story_1005',
      clock.next(),
      SERVER,
      'redirect',
      'text/html; charset=iso-8859-1',
      moved,
      301,
    ),
    title: '301 Moved Permanently',
    extraHeaders: [['Location', `${NEWS}/story_1005`]],
  });
  add(
    plainItem(
      NEWS + '/static/news.css',
      clock.next(),
      SERVER,
      'css',
      'text/css',
      'body { font: 16px/1.5 Georgia, serif; margin: 0 auto; max-width: 42em; }\n' +
        'nav ul { list-style: none; display: flex; gap: 1em; }\n.byline { color: #666; font-style: italic; }\n' +
        'aside { border-top: 1px solid #ccc; margin-top: 2em; }\n',
    ),
  );

  out.notDup.push(
    { a: `${NEWS}/story_1030`, b: `${NEWS}/story_1031`, kind: 'same-template' },
    { a: `${NEWS}/story_1022`, b: `${NEWS}/story_1023`, kind: 'same-template' },
    { a: `${NEWS}/story?id=1001`, b: `${NEWS}/story?id=1002`, kind: 'different-param-value' },
    { a: `${NEWS}/${SECTIONS[0].dir}/`, b: `${NEWS}/${SECTIONS[1].dir}/`, kind: 'section-listing' },
    { a: `${NEWS}/story_9999`, b: `${NEWS}/`, kind: 'error-page' },
  );
  return out;
}

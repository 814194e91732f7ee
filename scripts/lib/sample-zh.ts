// www.example-zh.test: Chinese articles in UTF-8 plus a few GBK-encoded pages
// (declared only by <meta charset="gb2312">), with reposts.

import { type Rng, randInt } from './prng.ts';
import { encodeLegacy } from './legacy-encodings.ts';
import { type Link, type PageModel } from './sample-html.ts';
import { type Clock, type SiteBuild, htmlItem } from './sample-crawl.ts';
import { type Pool, type Section } from './sample-text.ts';
import { zhName } from './sample-names.ts';

export const ZH = 'http://www.example-zh.test';
const SERVER = 'nginx/1.18.0';
const COUNT = 30;
/** Articles that are also served GBK-encoded (`/gb/a05.html`, the byline repost `/gb/b02.html`). */
const GBK_SOURCES = [5, 7];
const CREDIT =
  '正文选自《Debian 参考手册》（Osamu Aoki 著，简体中文翻译组译），依 GNU GPL 第 2 版或更新版本发布。';
const FOOTER_LINKS: Link[] = [
  { href: '/about.html', label: '关于我们' },
  { href: '/contact.html', label: '联系方式' },
];

/** GBK has no code for some characters of the source (e.g. some symbols): such text cannot go under /gb/. */
const gbkSafe = (t: Section): boolean => {
  try {
    encodeLegacy([t.title, ...t.paragraphs].join('\n'), 'gbk');
    return true;
  } catch {
    return false;
  }
};

interface Article {
  path: string;
  title: string;
  byline: string;
  paragraphs: string[];
  related: string[];
}

const articlePath = (i: number): string => `/news/2024/a${String(i).padStart(2, '0')}.html`;

function byline(rng: Rng, day: number): string {
  return `作者：${zhName(rng)} 2024年1月${day}日 ${randInt(rng, 8, 20)}:${String(randInt(rng, 0, 59)).padStart(2, '0')}`;
}

function model(a: Article, charset: string, titleOf: (path: string) => string): PageModel {
  return {
    lang: 'zh',
    title: `${a.title} - 示例新闻网`,
    metaCharset: charset,
    site: '示例新闻网',
    nav: [
      { href: '/', label: '首页' },
      { href: '/#latest', label: '最新' },
    ],
    heading: a.title,
    byline: a.byline,
    paragraphs: a.paragraphs,
    relatedTitle: '相关新闻',
    related: a.related.map((p): Link => ({ href: p, label: titleOf(p) })),
    footerLinks: FOOTER_LINKS,
    footer: `示例新闻网 2024。${CREDIT}`,
  };
}

/** First ~60% of the characters, cut after the next full stop. */
function truncateZh(paragraphs: string[]): string[] {
  const all = paragraphs.join('\n');
  const stop = all.indexOf('。', Math.floor(all.length * 0.6));
  return all.slice(0, stop < 0 ? all.length : stop + 1).split('\n');
}

/** `text`: sections of the Chinese Debian Reference, one per article. */
export function buildZh(rng: Rng, clock: Clock, text: Pool): SiteBuild {
  const out: SiteBuild = { items: [], relations: [], notDup: [] };
  const articles: Article[] = [];
  for (let i = 1; i <= COUNT; i++) {
    const t = GBK_SOURCES.includes(i) ? text.take(gbkSafe, 'GBK-encodable section') : text.take();
    articles.push({
      path: articlePath(i),
      title: t.title,
      byline: byline(rng, 15),
      paragraphs: t.paragraphs,
      related: [1, 3, 7].map((d) => articlePath(((i - 1 + d) % COUNT) + 1)),
    });
  }
  const art = (i: number): Article => articles[i - 1];
  const titleOf = (path: string): string => articles.find((a) => a.path === path)?.title ?? path;
  const u = text.take(gbkSafe, 'GBK-encodable section');
  const unique: Article = {
    path: '/gb/b01.html',
    title: u.title,
    byline: byline(rng, 14),
    paragraphs: u.paragraphs,
    related: [articlePath(2), articlePath(9)],
  };
  const gbk = {
    legacy: 'gbk' as const,
    contentType: 'text/html',
    charset: 'gbk (declared gb2312 in <meta>)',
  };
  // [path, article, kind, derived-from, gbk?]
  const extra: Array<[string, Article, string, string | null, boolean]> = [
    ['/gb/a05.html', art(5), 'zh-gbk-copy', articlePath(5), true],
    ['/gb/b01.html', unique, 'zh-gbk-article', null, true],
    ['/gb/b02.html', { ...art(7), byline: byline(rng, 16) }, 'zh-repost-byline', articlePath(7), true],
    ['/repost/r01.html', { ...art(3), byline: byline(rng, 16) }, 'zh-repost-byline', articlePath(3), false],
    ['/repost/r02.html', { ...art(4), byline: byline(rng, 17) }, 'zh-repost-byline', articlePath(4), false],
    [
      '/repost/r03.html',
      { ...art(6), paragraphs: truncateZh(art(6).paragraphs) },
      'zh-repost-truncated',
      articlePath(6),
      false,
    ],
  ];

  const index: PageModel = {
    ...model(
      { path: '/', title: '示例新闻网', byline: '', paragraphs: [text.take().paragraphs[0]], related: [] },
      'utf-8',
      titleOf,
    ),
    title: '示例新闻网 - 首页',
    relatedTitle: '最新新闻',
    related: [
      ...articles.map((a): Link => ({ href: a.path.slice(1), label: a.title })),
      ...extra.map(([path, a]): Link => ({ href: path, label: a.title })),
    ],
  };
  out.items.push(htmlItem(ZH + '/', index, { server: SERVER, date: clock.next(), kind: 'zh-index' }));
  for (const a of articles) {
    out.items.push(
      htmlItem(ZH + a.path, model(a, 'utf-8', titleOf), {
        server: SERVER,
        date: clock.next(),
        kind: 'zh-article',
      }),
    );
  }
  for (const [path, a, kind, of, isGbk] of extra) {
    const m = model({ ...a, path }, isGbk ? 'gb2312' : 'utf-8', titleOf);
    const opts = { server: SERVER, date: clock.next(), kind, ...(isGbk ? gbk : {}) };
    out.items.push(htmlItem(ZH + path, m, opts));
    if (of) out.relations.push({ url: ZH + path, of: ZH + of });
  }
  out.notDup.push(
    { a: ZH + articlePath(1), b: ZH + articlePath(2), kind: 'same-template' },
    { a: ZH + '/gb/b01.html', b: ZH + articlePath(1), kind: 'same-template-other-encoding' },
  );
  return out;
}

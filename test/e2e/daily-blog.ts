/**
 * A daily blog for the DUST tests (issue 45, item 3): one article per date over two calendar years,
 * each at /YYYY/MM/DD/N/ and at /article.php?aid=N (the same bytes), as a WARC.gz.
 */
import {
  gzipMember,
  httpRequest,
  httpResponse,
  recordIdFactory,
  warcRecord,
} from '../../scripts/lib/warc-writer';
import { words as textOf } from './small-crawl';

const WORDS =
  'amber basil cider dusk ember fable grove heath inlet jade knoll loam marsh nook orbit peat'.split(' ');

function html(doc: number, title: string): Buffer {
  return Buffer.from(
    `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>${textOf(doc, 120, 50, WORDS).join(' ')}</p></body></html>`,
  );
}

/** The articles of the daily blog: one a day from 2023-10-01, over two calendar years. */
export const ARTICLES = 150;
const day = (k: number) => new Date(Date.UTC(2023, 9, 1) + k * 86_400_000);
const two = (x: number) => String(x).padStart(2, '0');
export const datePath = (k: number) => {
  const d = day(k);
  return `/${d.getUTCFullYear()}/${two(d.getUTCMonth() + 1)}/${two(d.getUTCDate())}/${articleId(k)}/`;
};
export const articleId = (k: number) => 4100 + 3 * k + (k % 2);

/**
 * A daily blog (issue 45, item 3): one article per date over two calendar years, each at
 * /YYYY/MM/DD/N/ and at /article.php?aid=N (the same bytes). Every date's rule has one instance; only
 * the family, counted together, reaches MS. Four other pages, so the site is not only aliases.
 */
export function dailyBlogWarc(): Buffer {
  const id = recordIdFactory('dust-families');
  const out: Buffer[] = [];
  const put = (url: string, body: Buffer) => {
    const date = '2024-03-01T10:00:00Z';
    out.push(
      gzipMember(
        warcRecord({ type: 'request', targetUri: url, date, recordId: id(), block: httpRequest(url) }),
      ),
      gzipMember(
        warcRecord({
          type: 'response',
          targetUri: url,
          date,
          recordId: id(),
          block: httpResponse(200, [['Content-Type', 'text/html; charset=utf-8']], body),
        }),
      ),
    );
  };
  const W = 'http://www.daily.test';
  let doc = 0;
  for (const p of ['/', '/about.html', '/archive/2023/', '/archive/2024/']) put(`${W}${p}`, html(++doc, p));
  for (let k = 0; k < ARTICLES; k++) {
    const body = html(++doc, `Article ${articleId(k)}`);
    put(`${W}/article.php?aid=${articleId(k)}`, body);
    // Most articles were also crawled at their permalink.
    if (k % 5 !== 3) put(`${W}${datePath(k)}`, body);
  }
  return Buffer.concat(out);
}

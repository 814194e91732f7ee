/** A WACZ's page lists (pages/pages.jsonl, pages/extraPages.jsonl; wacz.ts finds them). */

export interface ListedPage {
  url: string;
  ts: string;
  title: string;
}

/**
 * pages.jsonl (json-pages-1.0): a header line `{"format":"json-pages-1.0","id":…,"title":…}`, then one
 * page per line with `url`, `ts` and optional `title`. Lines that do not parse are counted, not fatal.
 */
export function parsePagesJsonl(text: string): { pages: ListedPage[]; bad: number } {
  const pages: ListedPage[] = [];
  let bad = 0;
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    let o: Record<string, unknown>;
    try {
      o = JSON.parse(line) as Record<string, unknown>;
    } catch {
      bad++;
      continue;
    }
    if (typeof o.format === 'string') continue; // the header line
    if (typeof o.url !== 'string') {
      bad++;
      continue;
    }
    pages.push({
      url: o.url,
      ts: typeof o.ts === 'string' ? o.ts : '',
      title: typeof o.title === 'string' ? o.title : '',
    });
  }
  return { pages, bad };
}

/**
 * Every relative link of README.md and docs/*.md resolves: to a file or folder of the repository, and with
 * `#anchor` to a heading of that page (GitHub's anchors: lower case, punctuation dropped, spaces as hyphens,
 * `-1`, `-2` … for a repeated heading). Links to other sites are not fetched.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

/** The pages checked, by their path from the repository root. */
const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

/** The page without its fenced code blocks and code spans (a `[x](y)` there is code, not a link). */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** The targets of a page's inline links and images, `[text](target)` and `![alt](target "title")`. */
function linkTargets(markdown: string): string[] {
  return [...prose(markdown).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map(
    (m) => m[1],
  );
}

/** GitHub's anchor of a heading's text. */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // a link's text
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** The anchors a page's headings make (outside code blocks), repeats numbered as GitHub numbers them. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const headings = markdown
    .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '')
    .matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm);
  for (const [, text] of headings) {
    const base = slug(text);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** Why a link of `page` does not resolve, or null when it does. */
function broken(page: string, target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return null; // https:, mailto: … (not fetched)
  const [pathPart, anchor] = target.split('#', 2) as [string, string | undefined];
  const path = pathPart === '' ? join(ROOT, page) : join(ROOT, dirname(page), decodeURIComponent(pathPart));
  if (!path.startsWith(ROOT)) return 'outside the repository';
  if (!existsSync(path)) return `no such file: ${relative(ROOT, path)}`;
  if (anchor === undefined) return null;
  if (statSync(path).isDirectory() || !path.endsWith('.md'))
    return `an anchor into a file that is not a page`;
  return anchors(readFileSync(path, 'utf8')).has(anchor)
    ? null
    : `no heading #${anchor} in ${relative(ROOT, path)}`;
}

describe('links of the README and the docs', () => {
  it('finds the pages and their links', () => {
    expect(PAGES).toContain('docs/architecture.md');
    expect(linkTargets(readFileSync(join(ROOT, 'README.md'), 'utf8')).length).toBeGreaterThan(10);
  });

  it('every relative link resolves, anchors included', () => {
    const bad = PAGES.flatMap((page) =>
      linkTargets(readFileSync(join(ROOT, page), 'utf8')).flatMap((target) => {
        const why = broken(page, target);
        return why ? [`${page}: (${target}) ${why}`] : [];
      }),
    );
    expect(bad, 'links that do not resolve').toEqual([]);
  });

  it('reads links and anchors as GitHub does', () => {
    expect(linkTargets('see [a](docs/a.md#x) and ![b](img/b.png "B") but not `[c](d.md)`')).toEqual([
      'docs/a.md#x',
      'img/b.png',
    ]);
    expect([
      ...anchors('# Precision–recall curves\n## Many files, one crawl\n## `src/core/` map\n## Map\n## Map'),
    ]).toEqual(['precisionrecall-curves', 'many-files-one-crawl', 'srccore-map', 'map', 'map-1']);
  });
});

/**
 * docs/architecture.md's source map names every file and folder of `src` by its path
 * (`src/core/dust/rules.ts`, `src/core/dust/`): a file added, moved, renamed or split without its line in
 * the map fails here, and so does a line whose path is gone. Paths named anywhere in the docs must exist.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');
const ARCHITECTURE = 'docs/architecture.md';

/** The `## Source map` section of docs/architecture.md, up to the next `## ` heading. */
function sourceMap(): string {
  const page = readFileSync(join(ROOT, ARCHITECTURE), 'utf8');
  const at = page.indexOf('\n## Source map\n');
  if (at < 0) throw new Error(`${ARCHITECTURE} has no "## Source map" section`);
  const end = page.indexOf('\n## ', at + 1);
  return page.slice(at, end < 0 ? undefined : end);
}

/** The `src/…` paths a text names in code spans (`src/ui/`, `src/core/csv.ts`); globs left out. */
function namedPaths(text: string): Set<string> {
  return new Set([...text.matchAll(/`(src\/[^`\s]*)`/g)].map((m) => m[1]).filter((p) => !p.includes('*')));
}

/** Every folder (with a trailing slash) and file of `src`, by its path from the repository root. */
function sources(dir = join(ROOT, 'src')): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const rel = relative(ROOT, path);
    return statSync(path).isDirectory() ? [`${rel}/`, ...sources(path)] : [rel];
  });
}

/** Whether a named path is there: a folder when it ends in a slash, a file otherwise. */
function exists(path: string): boolean {
  const full = join(ROOT, path);
  return existsSync(full) && statSync(full).isDirectory() === path.endsWith('/');
}

describe("docs/architecture.md's source map", () => {
  it('names every file and folder of src by its path', () => {
    const named = namedPaths(sourceMap());
    const missing = [`src/`, ...sources()].filter((path) => !named.has(path));
    expect(missing, `files and folders of src that ${ARCHITECTURE}'s source map does not name`).toEqual([]);
  });

  it('names no path that does not exist', () => {
    const gone = [...namedPaths(sourceMap())].filter((path) => !exists(path));
    expect(gone, `paths in ${ARCHITECTURE}'s source map that are not in the tree`).toEqual([]);
  });

  it('the README and every page of docs name only src paths that exist', () => {
    const pages = [
      'README.md',
      ...readdirSync(join(ROOT, 'docs'))
        .filter((f) => f.endsWith('.md'))
        .map((f) => `docs/${f}`),
    ];
    const gone = pages.flatMap((page) =>
      [...namedPaths(readFileSync(join(ROOT, page), 'utf8'))]
        .filter((path) => !existsSync(join(ROOT, path)))
        .map((path) => `${page}: ${path}`),
    );
    expect(gone, 'src paths named in the docs that are not in the tree').toEqual([]);
  });
});

/**
 * The README's layout section names every source file and folder of `src`: a file added, renamed or
 * split without its line in the layout fails here.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../..');

function layoutBlock(): string {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const at = readme.indexOf('\n## Layout\n');
  const start = readme.indexOf('```\n', at);
  return readme.slice(start + 4, readme.indexOf('```\n', start + 4));
}

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? [path + '/', ...sources(path)] : /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe("the README's layout section", () => {
  it('names every file and folder of src', () => {
    const block = layoutBlock();
    const words = new Set(block.split(/[^A-Za-z0-9._/-]+/).flatMap((w) => [w, w.replace(/[.,;:]$/, '')]));
    const missing = sources(join(ROOT, 'src')).filter((path) => {
      const rel = relative(join(ROOT, 'src'), path) + (path.endsWith('/') ? '/' : '');
      if (rel.endsWith('/')) {
        const name = rel.split('/').at(-2)!;
        return !words.has(`${name}/`) && !words.has(`src/${rel}`);
      }
      const stem = rel
        .split('/')
        .at(-1)!
        .replace(/\.tsx?$/, '');
      return !words.has(stem);
    });
    expect(missing, 'files of src that the layout section does not name').toEqual([]);
  });
});

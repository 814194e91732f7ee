/**
 * No two files of `src` import each other, directly or round a longer loop (type imports included): a
 * cycle is where layers stop holding by themselves (the ingest worker and the module that starts workers
 * once named each other).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '../../src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : /\.tsx?$/.test(name) ? [path] : [];
  });
}

/** The files of `src` each file imports (relative specifiers, resolved as TypeScript resolves them). */
function graph(): Map<string, string[]> {
  const all = new Set(files(SRC));
  const g = new Map<string, string[]>();
  for (const f of all) {
    const deps: string[] = [];
    for (const m of readFileSync(f, 'utf8').matchAll(
      /(?:import|export)\s[^'";]*?from\s+['"](\.[^'"]+)['"]/g,
    )) {
      const base = normalize(join(dirname(f), m[1]));
      const hit = [base + '.ts', base + '.tsx', join(base, 'index.ts'), base].find((c) => all.has(c));
      if (hit) deps.push(hit);
    }
    g.set(f, deps);
  }
  return g;
}

/** Strongly connected components of more than one file (Tarjan). */
function cycles(g: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    on.add(v);
    for (const w of g.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w.slice(SRC.length + 1));
      } while (w !== v);
      if (comp.length > 1) out.push(comp.sort());
    }
  };
  for (const v of g.keys()) if (!index.has(v)) visit(v);
  return out;
}

describe('imports in src', () => {
  it('form no cycle', () => {
    expect(cycles(graph())).toEqual([]);
  });

  it('a cycle is found (two files of a made-up graph naming each other)', () => {
    const a = join(SRC, 'a.ts');
    const b = join(SRC, 'b.ts');
    expect(
      cycles(
        new Map([
          [a, [b]],
          [b, [a]],
        ]),
      ),
    ).toEqual([['a.ts', 'b.ts']]);
  });
});

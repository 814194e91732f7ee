// @vitest-environment jsdom
import 'fake-indexeddb/auto';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { seededRandom, type Rng } from '../../src/core/random';
import { compareTexts } from '../../src/core/text/compare';
import { splitWords } from '../../src/core/text/diff';
import { CompareView } from '../../src/ui/CompareView';
import { comparePair } from '../../src/ui/TextCompare';

afterEach(cleanup);

/** Seed of the random pairs; COMPARE_SEED=… reruns a reported case. */
const SEED = Number(process.env.COMPARE_SEED ?? 20261126);
const CASES = 20;

interface Planted {
  a: string;
  b: string;
  /** The words each difference takes out of A and puts into B, in order. */
  edits: { del: string[]; ins: string[] }[];
}

/**
 * A random text of distinct words (so the alignment of its edited copy is unique), with spaces, line
 * breaks and blank lines, and a copy with k edits (insert, delete or replace 1–3 words) at least two
 * untouched words apart. Inserted words are upper case: never in the text.
 */
function plantedPair(rng: Rng): Planted {
  const n = 5 + Math.floor(rng() * 150);
  const seen = new Set<string>();
  const words: string[] = [];
  while (words.length < n) {
    let w = '';
    const len = 2 + Math.floor(rng() * 8);
    for (let i = 0; i < len; i++) w += String.fromCharCode(97 + Math.floor(rng() * 26));
    if (!seen.has(w)) words.push((seen.add(w), w));
  }
  const sep = () => {
    const r = rng();
    return r < 0.08 ? '\n' : r < 0.11 ? '\n\n' : r < 0.13 ? '  ' : ' ';
  };
  const tokens = words.map((w) => w + sep());
  let fresh = 0;
  const newWords = (k: number) => Array.from({ length: k }, () => `NEW${fresh++}${sep()}`);
  const edits: Planted['edits'] = [];
  const b: string[] = [];
  let i = 0;
  while (i <= tokens.length) {
    if (rng() < 0.12) {
      const kind = Math.floor(rng() * 3); // 0 insert, 1 delete, 2 replace
      const del = kind === 0 ? [] : tokens.slice(i, i + 1 + Math.floor(rng() * 3));
      const ins = kind === 1 ? [] : newWords(1 + Math.floor(rng() * 3));
      if (del.length || ins.length) {
        edits.push({ del, ins });
        b.push(...ins);
        i += del.length;
        // Two untouched words before the next edit.
        b.push(...tokens.slice(i, i + 2));
        i += 2;
        continue;
      }
    }
    if (i < tokens.length) b.push(tokens[i]);
    i++;
  }
  return { a: tokens.join(''), b: b.join(''), edits: edits.filter((e) => e.del.length || e.ins.length) };
}

/** Reference diff: longest common subsequence of the words by dynamic programming; its differences. */
function referenceDiff(a: string, b: string): { del: string[]; ins: string[] }[] {
  const x = splitWords(a).map((t) => t.trimEnd());
  const y = splitWords(b).map((t) => t.trimEnd());
  const n = x.length;
  const m = y.length;
  const L = Array.from({ length: n + 1 }, () => new Int32Array(m + 1));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      L[i][j] = x[i] === y[j] ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]);
  const out: { del: string[]; ins: string[] }[] = [];
  let open: { del: string[]; ins: string[] } | null = null;
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && x[i] === y[j]) {
      open = null;
      i++;
      j++;
      continue;
    }
    if (!open) out.push((open = { del: [], ins: [] }));
    if (j < m && (i === n || L[i][j + 1] >= L[i + 1][j])) open.ins.push(y[j++]);
    else open.del.push(x[i++]);
  }
  return out;
}

const words = (s: string | null | undefined) => (s ?? '').split(/\s+/).filter(Boolean);

/** The marks of the difference shown now, in A and in B. */
function current(container: HTMLElement) {
  const marks = [...container.querySelectorAll<HTMLElement>('mark[aria-current="true"]')];
  return {
    diffs: [...new Set(marks.map((m) => Number(m.dataset.diff)))],
    a: marks.filter((m) => m.closest('.compare-a')).flatMap((m) => words(m.textContent)),
    b: marks.filter((m) => m.closest('.compare-b')).flatMap((m) => words(m.textContent)),
    sides: marks.map((m) => (m.closest('.compare-a') ? 'A' : 'B')).sort(),
  };
}

describe('pair comparison on seeded random text pairs', () => {
  it(`counts the reference diff's differences and visits each in order, forwards and back (seed ${SEED})`, () => {
    const counts: number[] = [];
    for (let c = 0; c < CASES; c++) {
      const seed = SEED + c;
      const { a, b, edits } = plantedPair(seededRandom(seed));
      const ref = referenceDiff(a, b);
      const why = `seed ${seed}`;
      expect(ref.length, why).toBe(edits.length);
      counts.push(ref.length);
      const comparison = comparePair(`test:${seed}`, a, b);
      // Computed once per pair: asked again, the same result comes back.
      expect(comparePair(`test:${seed}`, a, b), why).toBe(comparison);
      const { container, unmount } = render(
        <CompareView
          comparison={comparison}
          sides={[{ url: 'http://a.test/' }, { url: 'http://b.test/' }]}
        />,
      );
      const n = ref.length;
      expect(screen.getByTestId('diff-count').textContent, why).toBe(
        n === 0 ? 'No difference: the texts have the same words' : `${n} difference${n === 1 ? '' : 's'}`,
      );
      // Each column is its text, in order, text only.
      const column = (s: string) =>
        [...container.querySelectorAll(`.compare-scroll .compare-cell.compare-${s}`)]
          .map((e) => e.textContent)
          .join('');
      expect(column('a'), why).toBe(a);
      expect(column('b'), why).toBe(b);
      const scroll = screen.getByTestId('compare-scroll');
      const seen: number[] = [];
      for (let k = 0; n > 0 && k < n + 1; k++) {
        act(() => void fireEvent.keyDown(scroll, { key: ']' }));
        const now = current(container);
        const at = Math.min(k, n - 1);
        expect(now.diffs, why).toEqual([at]);
        expect(now.sides, why).toEqual(['A', 'B']);
        expect(now.a, why).toEqual(ref[at].del);
        expect(now.b, why).toEqual(ref[at].ins);
        expect(screen.getByTestId('diff-position').textContent, why).toBe(`Difference ${at + 1} of ${n}`);
        if (k < n) seen.push(now.diffs[0]);
      }
      expect(seen, why).toEqual(ref.map((_, k) => k));
      const back: number[] = [];
      for (let k = n - 2; k >= 0; k--) {
        act(() => void fireEvent.click(screen.getByRole('button', { name: 'Previous difference' })));
        back.push(current(container).diffs[0]);
      }
      expect(back, why).toEqual(
        ref
          .map((_, k) => k)
          .reverse()
          .slice(1),
      );
      if (n === 0) {
        expect(screen.getByRole('button', { name: 'Next difference' })).toBeDisabled();
        expect(current(container).diffs).toEqual([]);
      }
      unmount();
    }
    console.info(
      `compare-view: seed ${SEED} (COMPARE_SEED reruns), differences per pair: ${counts.join(' ')}`,
    );
  });

  it('] pressed outside any comparison moves the one shown last; typing in a field does not', () => {
    const comparison = compareTexts('one two three four', 'one TWO three FOUR');
    const { container } = render(
      <>
        <input aria-label="field" />
        <CompareView comparison={comparison} sides={[{}, {}]} />
      </>,
    );
    act(() => void fireEvent.keyDown(document.body, { key: ']' }));
    expect(current(container).diffs).toEqual([0]);
    act(() => void fireEvent.keyDown(screen.getByLabelText('field'), { key: ']' }));
    expect(current(container).diffs).toEqual([0]);
    act(() => void fireEvent.keyDown(document.body, { key: ']' }));
    expect(current(container).diffs).toEqual([1]);
  });

  it('shows crawled markup and bidirectional controls as text, in headers and texts', () => {
    const evil = '<script>alert(1)</script> http://x.test/\u202Egnp.exe';
    const comparison = compareTexts(`a ${evil} b`, `a ${evil} c`);
    const { container } = render(
      <CompareView
        comparison={comparison}
        sides={[{ url: 'http://bidi.test/\u202Egnp.exe', title: evil }, {}]}
      />,
    );
    expect(container.querySelector('script')).toBeNull();
    expect(container.innerHTML).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    expect(container.textContent).toContain('<script>alert(1)</script>');
    expect(container.textContent).toContain('⟨U+202E⟩gnp.exe');
    expect(screen.getAllByTestId('compare-head')[0].textContent).toMatch(/^A/);
  });

  it('says when texts are past the bounds, and shows them unmarked', () => {
    const long = compareTexts('a b c d', 'a b c e', { maxWords: 3, maxEdits: 10 });
    expect(long).toMatchObject({ kind: 'too-long', wordsA: 4, limit: 3 });
    const far = compareTexts('a b c d', 'e f g h', { maxWords: 100, maxEdits: 4 });
    expect(far).toMatchObject({ kind: 'too-different', limit: 4 });
    render(<CompareView comparison={far} sides={[{}, {}]} texts={['a b c d', 'e f g h']} />);
    expect(screen.getByTestId('diff-count').textContent).toMatch(/differ in more than 4 words/);
    expect(screen.getByRole('button', { name: 'Next difference' })).toBeDisabled();
    cleanup();
    // White space alone is no difference.
    render(<CompareView comparison={compareTexts('a b\nc', 'a  b c')} sides={[{}, {}]} />);
    expect(screen.getByTestId('diff-count').textContent).toBe('No difference: the texts have the same words');
    expect(screen.getByRole('button', { name: 'Next difference' })).toBeDisabled();
  });
});

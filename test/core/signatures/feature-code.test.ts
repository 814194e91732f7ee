import { describe, expect, it } from 'vitest';
import {
  codesMatch,
  FEATURE_CODE_DEFAULTS as D,
  FeatureCodeIndex,
  featureCode,
  lcsLength,
  lengthRatio,
} from '../../../src/core/signatures/feature-code';
import { PackedCodes } from '../../../src/core/signatures/feature-codes-packed';

const chars = (s: string) => [...s];

describe('feature code + length (Peng et al.)', () => {
  it('takes L = 5 characters on each side of the first 。', () => {
    expect(featureCode('导航 首页\n北京二十五所成人高校具有招生资格。新华网仅报道消息本身。')?.join('')).toBe(
      '有招生资格新华网仅报',
    );
    // White space and punctuation are not symbols; near the start of a text the left side is shorter.
    expect(featureCode('资 格。新华，网仅报道')?.join('')).toBe('资格新华网仅报');
    expect(featureCode('no full stop at all')).toBeNull();
  });

  it('uses L words around the first sentence end when there is no 。 (documented rule)', () => {
    const code = featureCode(
      'Home About\nThe quick brown fox jumps over the lazy dog. Then it ran far away into the woods.',
    );
    expect(code).toEqual(['jumps', 'over', 'the', 'lazy', 'dog', 'then', 'it', 'ran', 'far', 'away']);
    expect(featureCode('version 2.39 e.g. nothing ends here')).toBeNull();
  });

  it('LCS with one shifted character still matches (LCS = 9 ≥ 2L − 2 = 8)', () => {
    const a = chars('具有招生资格新华网仅');
    const b = chars('有招生资格新华网仅报'); // shifted by one: one lost at the front, one new at the end
    expect(lcsLength(a, b)).toBe(9);
    expect(codesMatch(a, b, D)).toBe(true);
  });

  it('LCS with two shifted characters matches at tolerance 2 (LCS = 8), not at tolerance 1', () => {
    const a = chars('具有招生资格新华网仅');
    const b = chars('招生资格新华网仅报道');
    expect(lcsLength(a, b)).toBe(8);
    expect(codesMatch(a, b, D)).toBe(true);
    expect(codesMatch(a, b, { ...D, tolerance: 1 })).toBe(false);
    expect(codesMatch(a, chars('生资格新华网仅报道消'), D)).toBe(false); // three shifted: LCS 7
  });

  it('the length ratio at a = 1.10: 1100 vs 1000 is the same page, 1101 vs 1000 is not', () => {
    expect(lengthRatio(1000, 1100)).toBeCloseTo(1.1, 12);
    expect(lengthRatio(1100, 1000) <= D.a).toBe(true);
    expect(lengthRatio(1101, 1000) <= D.a).toBe(false);
    expect(lengthRatio(0, 0)).toBe(1);
    expect(lengthRatio(0, 5)).toBe(Infinity);
  });

  it('the ordered index finds exactly the pairs a brute-force LCS comparison finds', () => {
    const base = chars('甲乙丙丁戊己庚辛壬癸子丑寅卯辰巳午未申酉');
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const codes: (string[] | null)[] = [];
    for (let i = 0; i < 120; i++) {
      if (i % 17 === 0) {
        codes.push(null);
        continue;
      }
      const start = Math.floor(rnd() * 4);
      const c = base.slice(start, start + 10);
      if (rnd() < 0.5) c[Math.floor(rnd() * 10)] = base[Math.floor(rnd() * base.length)];
      codes.push(c);
    }
    const idx = new FeatureCodeIndex(PackedCodes.from(codes), D);
    const found = Array.from(idx.pairs());
    const brute: number[] = [];
    for (let i = 0; i < codes.length; i++)
      for (let j = i + 1; j < codes.length; j++)
        if (
          codes[i] &&
          codes[j] &&
          codes[i]!.length >= 8 &&
          codes[j]!.length >= 8 &&
          codesMatch(codes[i]!, codes[j]!, D)
        )
          brute.push(i, j);
    const asSet = (f: number[]) =>
      new Set(f.reduce<string[]>((acc, _, k) => (k % 2 ? acc : [...acc, `${f[k]},${f[k + 1]}`]), []));
    expect(asSet(found)).toEqual(asSet(brute));
    expect(brute.length).toBeGreaterThan(20);
    // Binary-search lookup of one page agrees with the pair list.
    const p = 1;
    const viaPairs = [...asSet(found)].flatMap((s) => {
      const [i, j] = s.split(',').map(Number);
      return i === p ? [j] : j === p ? [i] : [];
    });
    expect(idx.matchesOf(p)).toEqual(viaPairs.sort((x, y) => x - y));
  });
});

describe('feature code on the main text (template text left out)', () => {
  it('a site-wide first sentence gives every page one code; the main text gives each its own', async () => {
    const { mainTexts } = await import('../../../src/core/text/template');
    const topics = [
      'apt',
      'dpkg',
      'git',
      'mail',
      'disks',
      'fonts',
      'locale',
      'cron',
      'ssh',
      'nginx',
      'boot',
      'udev',
      'tar',
      'grub',
      'perl',
      'vim',
    ];
    const pages = topics.map((t, i) => ({
      url: `https://docs.example.org/${t}.html`,
      text: `Welcome to the Example manual. Read it all before you start.\nHome\nIndex\nThis page is about ${t}. It is explained in full here, with examples ${i}.`,
    }));
    const whole = pages.map((p) => featureCode(p.text));
    expect(new Set(whole.map((c) => c!.join(' '))).size).toBe(1);
    const main = mainTexts(pages).map((t) => featureCode(t));
    expect(new Set(main.map((c) => c!.join(' '))).size).toBe(topics.length);
    expect(main[0]).toEqual(['this', 'page', 'is', 'about', 'apt', 'it', 'is', 'explained', 'in', 'full']);
  });
});

describe('the Latin feature code read from a short window first', () => {
  const seed = Number(process.env.FC_SEED ?? Math.floor(Math.random() * 1e9));
  /** The documented rule read from the 400-character windows only: the reference. */
  const reference = (text: string, L = D.L): string[] | null => {
    const m = /\p{L}{2,}[.!?](?=\s|$)/u.exec(text);
    if (!m) return null;
    const at = m.index + m[0].length;
    const words = (s: string) => s.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
    const left = words(text.slice(Math.max(0, at - 400), at)).slice(-L);
    const right = words(text.slice(at, at + 400)).slice(0, L);
    return left.length + right.length > 0 ? [...left, ...right] : null;
  };
  it(`equals the 400-character windows' code on random texts (seed ${seed}; FC_SEED=${seed} repeats it)`, async () => {
    const { seededRandom } = await import('../../../src/core/random');
    const rng = seededRandom(seed);
    const pieces = ['a', 'Ab', 'word', 'Ωμέγα', 'ΣΟΦΟΣ', 'x'.repeat(150), '3.5', 'e.g.', '—', '12', 'Straße'];
    for (let t = 0; t < 3000; t++) {
      const n = Math.floor(rng() * 120);
      let text = '';
      for (let k = 0; k < n; k++) {
        text += pieces[Math.floor(rng() * pieces.length)];
        const r = rng();
        text += r < 0.08 ? '. ' : r < 0.1 ? '! ' : r < 0.5 ? ' ' : r < 0.7 ? ', ' : r < 0.8 ? '\n' : '  ';
      }
      expect(featureCode(text), `seed ${seed}, text ${t}: ${JSON.stringify(text.slice(0, 200))}`).toEqual(
        reference(text),
      );
    }
  });
});

describe('feature codes packed as symbol ids', () => {
  const seed = Number(process.env.PACKED_SEED ?? Math.floor(Math.random() * 1e9));
  it(`give back every code: the same length, equal ids exactly where the words are equal, each word's hash (seed ${seed}; PACKED_SEED=${seed} repeats it)`, async () => {
    const { seededRandom } = await import('../../../src/core/random');
    const { hash32 } = await import('../../../src/core/hash');
    const rnd = seededRandom(seed);
    const vocab = Array.from({ length: 60 }, (_, i) => (i % 7 === 0 ? `词${i}` : `w${i}`));
    const codes: (string[] | null)[] = [];
    // Enough pages and symbols to grow every array past its first 1,024 entries.
    for (let p = 0; p < 3000; p++) {
      const r = rnd();
      const word = () => vocab[Math.floor(rnd() * vocab.length)];
      const earlier = p > 0 ? codes[Math.floor(rnd() * p)] : null;
      if (r < 0.1) codes.push(null);
      else if (r < 0.15) codes.push([]);
      else if (r < 0.45 && earlier) {
        // A near copy: one symbol changed (LCS ≥ length − 1, so it matches when long enough).
        const c = earlier.slice();
        if (c.length > 0) c[Math.floor(rnd() * c.length)] = word();
        codes.push(c);
      } else codes.push(Array.from({ length: 1 + Math.floor(rnd() * 12) }, word));
    }
    const packed = PackedCodes.from(codes);
    expect(packed.length).toBe(codes.length);
    const idOfWord = new Map<string, number>();
    for (let p = 0; p < codes.length; p++) {
      const got = packed.code(p);
      if (codes[p] === null) {
        expect(got, `page ${p}`).toBeNull();
        continue;
      }
      expect(got!.length, `page ${p}`).toBe(codes[p]!.length);
      codes[p]!.forEach((w, k) => {
        const id = got![k];
        expect(idOfWord.get(w) ?? id, `page ${p} symbol ${k}`).toBe(id);
        idOfWord.set(w, id);
        expect(packed.hashOf(id)).toBe(hash32(w));
      });
    }
    // Distinct words, distinct ids.
    expect(new Set(idOfWord.values()).size).toBe(idOfWord.size);
    // The index over packed codes finds what the string arrays' LCS finds.
    const idx = new FeatureCodeIndex(packed, D);
    const want: string[] = [];
    for (let i = 0; i < 400; i++)
      for (let j = i + 1; j < 400; j++) {
        const a = codes[i];
        const b = codes[j];
        if (a && b && a.length >= 8 && b.length >= 8 && codesMatch(a, b, D)) want.push(`${i},${j}`);
      }
    const got = Array.from(idx.pairs());
    const pairs: string[] = [];
    for (let k = 0; k < got.length; k += 2) if (got[k + 1] < 400) pairs.push(`${got[k]},${got[k + 1]}`);
    expect(want.length).toBeGreaterThan(20);
    expect(pairs.sort()).toEqual(want.sort());
  });
});

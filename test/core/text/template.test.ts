import { describe, expect, it } from 'vitest';
import {
  mainTexts,
  normaliseLine,
  siteOfUrl,
  templateLineHash,
  templateModel,
  TEMPLATE_DEFAULTS,
  TemplateModel,
  type TemplateOptions,
  type TemplatePage,
} from '../../../src/core/text/template';
import { seededRandom } from '../../../src/core/random';
import { hash32 } from '../../../src/core/hash';

const NAV = ['Home', 'Docs', 'Blog'];
const FOOTER = '© 2024 Example Corp. All rights reserved.';

/** A small site: 6 pages with one nav and footer; one line shared by two pages only. */
function site(): TemplatePage[] {
  const body = [
    ['Installing the tool takes a minute.', 'Run the installer.'],
    ['Configuring the tool is optional.', 'See the shared note below.'],
    ['Upgrading keeps your settings.', 'See the shared note below.'],
    ['Removing the tool deletes its cache.'],
    ['The command line has five verbs.'],
    ['Reporting a bug needs a log.'],
  ];
  return body.map((lines, i) => ({
    url: `https://www.example.com/p${i}.html`,
    text: [...NAV, ...lines, `Page ${i + 1} of 6`, FOOTER].join('\n'),
    hints: i < 3 ? NAV.map(templateLineHash) : undefined,
  }));
}

/** Brute force: a line is template iff the number of distinct texts on its site holding it, hints weighted, reaches the bar. */
function reference(pages: TemplatePage[], o: TemplateOptions): string[][] {
  const bySite = new Map<string, TemplatePage[]>();
  for (const p of pages) bySite.set(siteOfUrl(p.url), [...(bySite.get(siteOfUrl(p.url)) ?? []), p]);
  return pages.map((p) => {
    const texts = [...new Map(bySite.get(siteOfUrl(p.url))!.map((q) => [q.text, q])).values()];
    return p.text.split('\n').filter((line) => {
      if (line.length < o.minLineLength) return false;
      if (texts.length < o.minPages) return false;
      let count = 0;
      for (const q of texts) {
        const has = q.text
          .split('\n')
          .some((l) => l.length >= o.minLineLength && normaliseLine(l) === normaliseLine(line));
        if (has) count += q.hints?.includes(templateLineHash(line)) ? o.hintWeight : 1;
      }
      return count >= Math.max(o.minCount, o.minShare * texts.length);
    });
  });
}

/** The defaults want 10 pages of a site; the handmade site has 6. */
const SMALL = { minPages: 5, minCount: 3, minShare: 0.5 };

const templateLines = (p: TemplatePage, spans: [number, number][]) =>
  spans.flatMap(([s, e]) => p.text.slice(s, e).split('\n'));

describe('template text', () => {
  it('marks the shared nav, page counter and footer, keeps a line two pages share', () => {
    const pages = site();
    const o: TemplateOptions = { ...TEMPLATE_DEFAULTS, ...SMALL };
    const splits = templateModel(pages, o);
    splits.forEach((s, i) => {
      // "Page 3 of 6" and "Page 4 of 6" are one line once digits are normalised (CCNet).
      expect(templateLines(pages[i], s.spans)).toEqual([...NAV, `Page ${i + 1} of 6`, FOOTER]);
      expect(s.main).not.toContain('Home');
    });
    expect(splits[1].main).toBe('Configuring the tool is optional.\nSee the shared note below.');
    // One span per run of adjacent template lines: nav on top, counter + footer at the bottom.
    expect(splits[0].spans).toHaveLength(2);
    expect(splits.map((s, i) => templateLines(pages[i], s.spans))).toEqual(reference(pages, o));
  });

  it('counts identical texts once (URL aliases), and a small site keeps all its text', () => {
    const pages = site();
    const aliases = [0, 1, 2].map((k) => ({ ...pages[1], url: `https://example.com/p1.html?sid=${k}` }));
    const splits = templateModel([...pages, ...aliases], SMALL);
    expect(splits[1].main).toContain('See the shared note below.');
    expect(splits[0].spans.length).toBeGreaterThan(0);
    const small = templateModel(pages.slice(0, 3), SMALL);
    expect(small.every((s) => s.spans.length === 0)).toBe(true);
  });

  it('keeps sites apart: the same footer on another registrable domain does not count', () => {
    const a = site().slice(0, 3);
    const b = site()
      .slice(3)
      .map((p) => ({ ...p, url: p.url.replace('example.com', 'other.org') }));
    const splits = templateModel([...a, ...b], { minPages: 3, minCount: 3, minShare: 0.9 });
    // 3 pages per site: the footer is on all 3 of each site's pages.
    expect(splits.every((s) => s.spans.length > 0)).toBe(true);
    // One page of other.org: too small for a model, though the footer is on 4 of the 4 pages overall.
    const lone = templateModel([...a, b[0]], { minPages: 3, minCount: 3, minShare: 0.9 });
    expect(lone[3].spans).toEqual([]);
  });

  it('hints lower the bar: hinted lines on 2 of 6 pages are template, unhinted ones are not', () => {
    const pages = site().map((p, i) => ({
      ...p,
      text:
        p.text +
        (i < 2 ? '\nSidebar: related links' : '\nplain repeated line'.repeat(i === 2 || i === 3 ? 1 : 0)),
      hints: i < 2 ? [templateLineHash('Sidebar: related links')] : undefined,
    }));
    const o = { ...SMALL, minCount: 2, hintWeight: 2 };
    const splits = templateModel(pages, o);
    expect(splits[0].main).not.toContain('Sidebar');
    expect(splits[2].main).toContain('plain repeated line');
    expect(splits.map((s, i) => templateLines(pages[i], s.spans))).toEqual(
      reference(pages, { ...TEMPLATE_DEFAULTS, ...o }),
    );
  });

  it('normalises lines as CCNet does, a URL as one token', () => {
    expect(normaliseLine('  Page 12   of 40 ')).toBe(normaliseLine('page 37 of 98'));
    expect(templateLineHash('Mirrored from http://docs.test/a/ - may be out of date.')).toBe(
      templateLineHash('Mirrored from https://docs.test/b/c.html?x=1 - may be out of date.'),
    );
    expect(normaliseLine('Install the tool')).not.toBe(normaliseLine('Remove the tool'));
  });

  it('agrees with the brute-force reference on random sites', () => {
    const rnd = seededRandom(7);
    const vocab = Array.from({ length: 12 }, (_, i) => `line number ${String.fromCharCode(97 + i)} text`);
    for (let trial = 0; trial < 30; trial++) {
      const pages: TemplatePage[] = Array.from({ length: 3 + Math.floor(rnd() * 12) }, (_, i) => {
        const lines = vocab.filter(() => rnd() < 0.4);
        return {
          url: `http://${rnd() < 0.5 ? 'a' : 'b'}.test/${i}`,
          text: lines.join('\n'),
          hints: lines.filter(() => rnd() < 0.3).map(templateLineHash),
        };
      });
      const o: TemplateOptions = {
        ...TEMPLATE_DEFAULTS,
        minPages: 1 + Math.floor(rnd() * 5),
        minShare: rnd(),
        minCount: 1 + Math.floor(rnd() * 4),
        hintWeight: 1 + Math.floor(rnd() * 3),
      };
      const got = templateModel(pages, o).map((s, i) => templateLines(pages[i], s.spans));
      expect(got).toEqual(reference(pages, o));
    }
  });

  it('strip off gives the whole page; an all-template page is compared whole', () => {
    const pages = site();
    expect(mainTexts(pages, { strip: false })).toEqual(pages.map((p) => p.text));
    const allTemplate = [...pages, { url: 'https://example.com/index', text: [...NAV, FOOTER].join('\n') }];
    const texts = mainTexts(allTemplate, SMALL);
    expect(texts[6]).toBe(allTemplate[6].text);
    expect(texts[0]).toBe('Installing the tool takes a minute.\nRun the installer.');
  });
});

describe('templateLineHash', () => {
  const seed = Number(process.env.TEMPLATE_SEED ?? Math.floor(Math.random() * 1e9));
  it(`is hash32(normaliseLine(line)) on random lines: ASCII, Unicode, digits, spaces, URLs (seed ${seed}; TEMPLATE_SEED=… to replay)`, () => {
    const rnd = seededRandom(seed);
    const pieces = [
      'a',
      'Z',
      'Hello',
      'WORLD',
      '0',
      '7',
      '42',
      ' ',
      '  ',
      '\t',
      '\v',
      '\f',
      '\r',
      '\u00a0',
      '\u2003',
      '-',
      '.',
      ':',
      '/',
      '://',
      'http://x.test/a',
      'HTTPS://Y.test',
      'x1+http://q',
      'é',
      'İ',
      'ß',
      '٣',
      '中文',
      'Σ',
      'ΟΔΟΣ',
      '\u{1d7ce}',
      '\u3000',
      '\ufeff',
      '\u2028',
      '\u0660',
      '\u{10400}',
      '\u{1f600}',
      '<',
      '&',
      '_',
      "'",
    ];
    for (let t = 0; t < 5000; t++) {
      const k = Math.floor(rnd() * 12);
      let line = '';
      for (let i = 0; i < k; i++) line += pieces[Math.floor(rnd() * (t % 2 ? pieces.length : 11))];
      expect(templateLineHash(line), `seed ${seed}, line ${JSON.stringify(line)}`).toBe(
        hash32(normaliseLine(line)),
      );
    }
  });
});

describe('the template model as the signatures job stores it', () => {
  it('splits every page, seen or not, as the model it was stored from (random sites, options; seeded)', () => {
    for (let seed = 1; seed <= 25; seed++) {
      const rnd = seededRandom(seed);
      const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
      const lines = Array.from({ length: 40 }, (_, i) => `line ${i} ${Math.floor(rnd() * 1e6).toString(36)}`);
      const page = (i: number): TemplatePage => {
        const host = pick(['a.example.com', 'b.example.org', 'www.c.test']);
        const text = Array.from({ length: 3 + Math.floor(rnd() * 12) }, () =>
          rnd() < 0.5 ? pick(lines.slice(0, 8)) : pick(lines),
        ).join('\n');
        return {
          url: `https://${host}/p${i}`,
          text,
          hints: rnd() < 0.3 ? [templateLineHash(lines[0])] : undefined,
        };
      };
      const seen = Array.from({ length: 20 + Math.floor(rnd() * 80) }, (_, i) => page(i));
      const unseen = Array.from({ length: 20 }, (_, i) => page(1000 + i));
      const opts: Partial<TemplateOptions> = {
        minPages: 1 + Math.floor(rnd() * 15),
        minCount: Math.floor(rnd() * 10),
        minShare: rnd() * 0.5,
        hintWeight: 1 + Math.floor(rnd() * 3),
      };
      const model = new TemplateModel(opts);
      for (const p of seen) model.observe(p);
      const stored = JSON.parse(JSON.stringify(model.toStored())) as ReturnType<TemplateModel['toStored']>;
      const restored = TemplateModel.fromStored(opts, stored);
      for (const p of [...seen, ...unseen])
        expect(restored.split(p), `seed ${seed}, ${p.url}`).toEqual(model.split(p));
    }
  });
});

import { describe, expect, it } from 'vitest';
import { distinguishing } from '../../../src/core/url/distinguish';
import { seededRandom } from '../../../src/core/random';

describe('URLs shown by what tells them apart', () => {
  it('keeps the port, the differing segment and the query; elides what every URL shares', () => {
    const byPort = distinguishing([
      'http://127.0.0.1:28431/docs/15/static/runtime-config.html',
      'http://127.0.0.1:28432/docs/15/static/runtime-config.html',
    ]);
    expect(byPort).toEqual({
      shared: null,
      shown: ['127.0.0.1:28431/…/runtime-config.html', '127.0.0.1:28432/…/runtime-config.html'],
    });
    const byQuery = distinguishing([
      'http://h.test/docs/15/static/p.html?view=printable',
      'http://h.test/docs/15/static/p.html',
    ]);
    expect(byQuery).toEqual({ shared: 'http://h.test', shown: ['/…/p.html?view=printable', '/…/p.html'] });
    const byPath = distinguishing(['http://h.test/a/15/x/p.html', 'http://h.test/a/16/x/p.html']);
    expect(byPath.shown).toEqual(['/…/15/…/p.html', '/…/16/…/p.html']);
  });

  const seed = Number(process.env.DISTINGUISH_SEED ?? Math.floor(Math.random() * 1e9));
  it(`never shows two different URLs alike, on random groups (seed ${seed}; DISTINGUISH_SEED=… to replay)`, () => {
    const rnd = seededRandom(seed);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
    for (let t = 0; t < 2000; t++) {
      const n = 2 + Math.floor(rnd() * 6);
      const urls = Array.from(
        { length: n },
        () =>
          `${pick(['http', 'https'])}://${pick(['a.test', 'b.test', '127.0.0.1:8001', '127.0.0.1:8002'])}` +
          Array.from({ length: Math.floor(rnd() * 4) }, () => `/${pick(['x', 'y', '15', 'docs', ''])}`).join(
            '',
          ) +
          pick(['', '?a=1', '?a=2', '?a=1&b=2', '#f', '/']),
      );
      const { shared, shown } = distinguishing(urls);
      for (let i = 0; i < n; i++)
        for (let j = 0; j < n; j++)
          if (urls[i] !== urls[j])
            expect(shown[i], `seed ${seed} trial ${t}: ${urls[i]} / ${urls[j]} (${shared})`).not.toBe(
              shown[j],
            );
    }
  });
});

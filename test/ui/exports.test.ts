// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { DEFAULT_THRESHOLDS } from '../../src/core/candidates/methods';
import { svgWithLegend } from '../../src/ui/charts/frame';
import { fileNamePart, methodTags } from '../../src/ui/exports';
import { detachedSvg } from './charts/svg';

describe('export file names', () => {
  it('keep letters, digits, dot and dash; anything else becomes one dash', () => {
    expect(fileNamePart('sample.warc.gz')).toBe('sample.warc.gz');
    expect(fileNamePart('Crawl "A"/B: 2024 ümlaut')).toBe('Crawl-A-B-2024-umlaut');
    expect(fileNamePart('../..\\etc')).toBe('etc');
    expect(fileNamePart('抓取')).toBe('');
  });

  it('name the method and the thresholds it reads', () => {
    const t = { ...DEFAULT_THRESHOLDS, C: 1, D: 0.022, jaccard: 0.8, hamming: 4, a: 1.1 };
    expect(methodTags('minhash', t)).toEqual(['minhash', 'jaccard-0.8']);
    expect(methodTags('rp-hm', t)).toEqual(['rp-hm', 'C-1', 'D-0.022']);
    expect(methodTags('simhash', t)).toEqual(['simhash', 'hamming-4']);
    expect(methodTags('feature-code', t)).toEqual(['feature-code', 'a-1.1', 'length-check']);
    expect(methodTags('exact', t)).toEqual(['exact']);
  });
});

describe('svgWithLegend', () => {
  it('adds a legend row per series and a note below the chart, leaving the chart as drawn', () => {
    const svg = detachedSvg();
    svg.setAttribute('width', '300');
    svg.setAttribute('height', '200');
    svg.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
    const text = svgWithLegend(
      svg,
      [{ label: 'D = 0.011, C varies' }, { label: 'C = 1 (RP only)' }],
      'x & y',
    );
    expect(text).toMatch(/^<svg[^>]*height="248"/);
    expect(text).toContain('D = 0.011, C varies');
    expect(text).toContain('C = 1 (RP only)');
    expect(text).toContain('x &amp; y');
    expect(svg.getAttribute('height')).toBe('200');
    expect(svg.childNodes).toHaveLength(0);
  });
});

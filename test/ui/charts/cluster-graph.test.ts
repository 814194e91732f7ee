// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import {
  drawClusterGraph,
  fitLabel,
  LABEL_CHARS,
  layoutClusterGraph,
  shortPath,
  type GraphNode,
} from '../../../src/ui/charts/cluster-graph';
import { detachedSvg } from './svg';

describe('shortPath', () => {
  it('keeps the host and port of an IP address (127.0.0.1:28431 and :28432 are two sites)', () => {
    expect(shortPath('http://127.0.0.1:28431/guide/')).toBe('127.0.0.1:28431/guide/');
    expect(shortPath('http://127.0.0.1:28432/a/b/c/index.html')).toBe('127.0.0.1:28432/…/c/index.html');
    expect(shortPath('http://[::1]:8080/x')).toBe('[::1]:8080/x');
  });

  it('names a named host by its first label (www skipped), with its port', () => {
    expect(shortPath('http://mirror.example-docs.test/guide/index.html')).toBe('mirror/guide/index.html');
    expect(shortPath('http://www.example.test:8080/')).toBe('example:8080/');
  });

  it('cuts a long path in its middle, keeping its end, never the host and port', () => {
    const s = shortPath('http://127.0.0.1:28431/docs/section/chapter-one/a-rather-long-page-name-7.html?p=2');
    expect(s.length).toBeLessThanOrEqual(LABEL_CHARS);
    expect(s.startsWith('127.0.0.1:28431/')).toBe(true);
    expect(s.endsWith('7.html?p=2')).toBe(true);
    expect(s).toContain('…');
  });

  it('cuts a long host in its middle and keeps its port', () => {
    const s = fitLabel(`${'h'.repeat(40)}:8443`, '/index.html', 24);
    expect(s.length).toBeLessThanOrEqual(24);
    expect(s).toMatch(/^h+…h+:8443\/…$/);
  });
});

describe('cluster graph labels', () => {
  it('draws labels inside the box that do not overlap, leaving out those with no room', () => {
    const nodes: GraphNode[] = Array.from({ length: 12 }, (_, i) => ({
      id: i,
      label: shortPath(`http://127.0.0.1:${28431 + (i % 2)}/docs/chapter/a-long-page-name-${i}.html`),
      title: `page ${i}`,
      centre: i === 0,
    }));
    const edges = nodes.slice(1).map((n) => ({ source: 0, target: n.id, weight: 0.9, title: '' }));
    const layout = layoutClusterGraph(nodes, edges, { width: 420, height: 260 });
    const svg = detachedSvg();
    drawClusterGraph(svg, layout, { active: -1, onEdge: () => {}, idPrefix: 'e' });
    const labels = [...svg.querySelectorAll('text.node-label')];
    expect(labels.length).toBeGreaterThan(0);
    // jsdom lays nothing out: the graph estimates 6 px a character, as the boxes below do.
    const boxes = labels.map((t) => {
      const w = (t.textContent ?? '').length * 6;
      const x = Number(t.getAttribute('x'));
      const anchor = t.getAttribute('text-anchor');
      const x0 = anchor === 'start' ? x : anchor === 'end' ? x - w : x - w / 2;
      const y = Number(t.getAttribute('y'));
      return { x0, x1: x0 + w, y0: y - 9, y1: y + 3, text: t.textContent ?? '' };
    });
    for (const b of boxes) {
      expect(b.text).toMatch(/^127\.0\.0\.1:2843[12]\//);
      expect(b.x0).toBeGreaterThanOrEqual(0);
      expect(b.x1).toBeLessThanOrEqual(420);
      expect(b.y0).toBeGreaterThanOrEqual(0);
      expect(b.y1).toBeLessThanOrEqual(260);
    }
    for (let i = 0; i < boxes.length; i++)
      for (let j = i + 1; j < boxes.length; j++) {
        const [a, b] = [boxes[i], boxes[j]];
        expect(a.x1 <= b.x0 || b.x1 <= a.x0 || a.y1 <= b.y0 || b.y1 <= a.y0).toBe(true);
      }
  });
});

import { describe, expect, it } from 'vitest';
import type { Rule } from '../../../src/core/dust';
import { clusterKind, explains, rulesExplaining } from '../../../src/core/dust/cluster-kind';

const rule = (alpha: string, beta: string, status: Rule['status'] = 'valid'): Rule => ({
  kind: 'substring',
  alpha: [alpha],
  beta: [beta],
  id: 0,
  site: 'h.test',
  support: 5,
  likelySimilarSupport: 5,
  redundancySupport: 5,
  status,
  direction: 'shrinking',
  positives: 0,
  negatives: 0,
  instances: [],
  refinesValid: null,
  reason: '',
});

describe('cross-pane links', () => {
  it('finds the rules that relate two members of a cluster', () => {
    const members = ['http://h.test/story_1', 'http://h.test/story?id=1'];
    const drop = { ...rule('x', 'y'), kind: 'param-drop' as const, param: 'id' };
    expect(explains(drop as Rule, new Set(members))).toBe(false);
    const urls = ['http://h.test/a.html?sessionid=5', 'http://h.test/a.html'];
    const sessionDrop = { ...rule('x', 'y'), kind: 'param-drop' as const, param: 'sessionid' } as Rule;
    expect(rulesExplaining([sessionDrop], urls)).toHaveLength(1);
    expect(rulesExplaining([{ ...sessionDrop, status: 'refuted' } as Rule], urls)).toHaveLength(0);
  });

  it('says aliases only when mined rules relate every URL, and claims nothing before mining', () => {
    const sessionDrop = { ...rule('x', 'y'), kind: 'param-drop' as const, param: 'sessionid' } as Rule;
    const aliases = ['http://h.test/a.html?sessionid=5', 'http://h.test/a.html'];
    const three = [...aliases, 'http://h.test/b.html'];
    const hosts = (u: string[]) => u.map(() => 'h.test');
    // One host and near-identical text is no evidence of aliasing until rules are mined.
    expect(clusterKind(aliases, hosts(aliases), null).kind).toBe('not-mined');
    expect(clusterKind(aliases, hosts(aliases), [sessionDrop]).kind).toBe('aliases');
    // A rule relating two of three members does not make the third an alias.
    expect(clusterKind(three, hosts(three), [sessionDrop])).toMatchObject({
      kind: 'partly-aliases',
      related: 2,
      groups: 2,
    });
    expect(clusterKind(three, hosts(three), []).kind).toBe('replicas');
    expect(clusterKind(aliases, hosts(aliases), [{ ...sessionDrop, status: 'refuted' } as Rule]).kind).toBe(
      'replicas',
    );
    expect(clusterKind(aliases, ['a.test', 'b.test'], []).oneHost).toBe(false);
  });
});

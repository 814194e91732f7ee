/**
 * The sections of a site that a rule's scope names (scope.ts): an origin and the first directory of
 * the path ('{n}' when it is a number: /2024/…, /2025/… are one section), or the files at the root.
 */
import type { Rule } from './types';

/** The origin of a URL ('http://s:8080'), '' when it has none. */
export function originOf(url: string): string {
  const at = url.indexOf('://');
  if (at < 0) return '';
  let end = at + 3;
  while (end < url.length && url[end] !== '/' && url[end] !== '?' && url[end] !== '#') end++;
  return url.slice(0, end);
}

const DIGITS = /^[0-9]+$/;

/**
 * A URL's section: its origin and its first path directory ('http://s/docs/', 'http://s/{n}/'), or
 * 'http://s/' for a file at the root (no directory before the query).
 */
export function sectionKey(url: string): string {
  const origin = originOf(url);
  let p = origin.length;
  if (url[p] !== '/') return `${origin}/`;
  p++;
  let end = p;
  while (end < url.length && url[end] !== '/' && url[end] !== '?' && url[end] !== '#') end++;
  if (url[end] !== '/') return `${origin}/`;
  const dir = url.slice(p, end);
  return `${origin}/${DIGITS.test(dir) ? '{n}' : dir}/`;
}

/** Whether a rule's scope lets it rewrite url (no scope: everywhere on its site). */
export function inScope(rule: Rule, url: string): boolean {
  if (rule.scope === undefined) return true;
  let set = scopeSets.get(rule.scope);
  const { urls, origins, sections } = rule.scope;
  if (!set) scopeSets.set(rule.scope, (set = new Set(urls ?? origins ?? sections)));
  return set.has(urls ? url : origins ? originOf(url) : sectionKey(url));
}

/** Each scope's sections as a set, made on first use (a scope may come back from a worker as a copy). */
const scopeSets = new WeakMap<object, Set<string>>();

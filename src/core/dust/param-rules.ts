/**
 * Parameter substitution rules (§1: "A parameter substitution rule replaces the value of a parameter
 * in a URL by some default value. Thanks to the standard syntax of parameter usage in URLs, detecting
 * parameter substitution rules is fairly straightforward"; §5: the third phase "generates likely
 * parameter substitution rules and is discussed in the full draft of the paper", which we do not
 * have). Two kinds: drop the parameter, or set it to a default value.
 *
 * Detection mirrors Fig. 1 with the query syntax in place of envelopes: URLs equal up to parameter P
 * (P removed: the "envelope") form a group whose members differ only in P's value (absent included).
 * - drop P: each member carrying P is an instance; it is likely similar when LikelySimilar to the
 *   group's reference — the member without P if the list has it, else the group's first member.
 * - set P = v: each member with another value of P is an instance, likely similar when LikelySimilar
 *   to the member with P = v. Groups larger than T_high are skipped for defaults, as overflowing
 *   buckets are in Fig. 1 (page=1, page=2, … "flock together", §1).
 * Rules with likely-similar support ≥ MS are kept, sorted by it.
 */
import { likelySimilar } from './similarity';
import { groupBySite } from './url-list';
import type { DustParams, DustUrl, ParamDefaultRule, ParamDropRule, PathParamDropRule } from './types';
import {
  build,
  dropPathParam,
  nameOf,
  parseQuery,
  PATH_PARAM,
  pathParamNames,
  pathSpan,
  valueOf,
} from './url-params';

interface Group {
  name: string;
  /** URL indices and their value of the parameter (null: absent). */
  members: number[];
  values: (string | null)[];
}

interface Tally {
  support: number;
  similar: number;
  instances: [string, string][];
}

function tally(map: Map<string, Tally>, key: string): Tally {
  let t = map.get(key);
  if (!t) map.set(key, (t = { support: 0, similar: 0, instances: [] }));
  return t;
}

function count(t: Tally, u: DustUrl, w: DustUrl, similar: boolean, sample: number): void {
  t.support++;
  if (!similar) return;
  t.similar++;
  if (t.instances.length < sample) t.instances.push([u.url, w.url]);
}

/**
 * Groups of one site: URLs equal up to one parameter, keyed by parameter and remaining URL. Members
 * of a group share the part before '?', so only paths shared by two URLs are looked at.
 */
function groupsOf(urls: readonly DustUrl[]): Group[] {
  const byPath = new Map<string, number[]>();
  urls.forEach((u, k) => {
    const q = u.url.indexOf('?');
    const path = q < 0 ? u.url : u.url.slice(0, q);
    const list = byPath.get(path);
    if (list) list.push(k);
    else byPath.set(path, [k]);
  });
  const out: Group[] = [];
  for (const members of byPath.values()) {
    if (members.length < 2) continue;
    const index = new Map(members.map((k) => [urls[k].url, k]));
    const groups = new Map<string, Group>();
    for (const k of members) {
      const q = parseQuery(urls[k].url);
      if (!q) continue;
      for (const name of new Set(q.pieces.map(nameOf))) {
        if (name === '') continue;
        const rest = build(
          q.base,
          q.pieces.filter((p) => nameOf(p) !== name),
        );
        const key = `${name}\u0000${rest}`;
        let g = groups.get(key);
        if (!g) {
          g = { name, members: [], values: [] };
          groups.set(key, g);
          const bare = index.get(rest);
          if (bare !== undefined) {
            g.members.push(bare);
            g.values.push(null);
          }
        }
        g.members.push(k);
        g.values.push(
          q.pieces
            .filter((p) => nameOf(p) === name)
            .map(valueOf)
            .join('&'),
        );
      }
    }
    for (const g of groups.values()) if (g.members.length > 1) out.push(g);
  }
  return out;
}

/** Likely parameter rules of a URL list, per site, ids from firstId. */
export function detectParamRules(
  urls: readonly DustUrl[],
  params: DustParams,
  firstId = 0,
): (ParamDropRule | ParamDefaultRule)[] {
  const out: (ParamDropRule | ParamDefaultRule)[] = [];
  const sample = params.instanceSample;
  for (const [site, list] of groupBySite(urls, params.site)) {
    const drops = new Map<string, Tally>();
    const defaults = new Map<string, Tally>();
    const sim = (a: number, b: number) => likelySimilar(list[a], list[b], params.likelySimilarJaccard);
    for (const g of groupsOf(list)) {
      const bareAt = g.values.indexOf(null);
      const ref = bareAt >= 0 ? bareAt : 0;
      const drop = tally(drops, g.name);
      g.members.forEach((m, k) => {
        if (g.values[k] === null) return;
        const w = k === ref ? (k + 1) % g.members.length : ref;
        count(drop, list[m], list[g.members[w]], sim(m, g.members[w]), sample);
      });
      if (g.members.length > params.Thigh) continue;
      const firstOf = new Map<string, number>();
      g.values.forEach((v, k) => {
        if (v !== null && !firstOf.has(v)) firstOf.set(v, k);
      });
      for (const [v, at] of firstOf) {
        const t = tally(defaults, `${g.name}\u0000${v}`);
        g.members.forEach((m, k) => {
          const other = g.values[k];
          if (other === null || other === v) return;
          count(t, list[m], list[g.members[at]], sim(m, g.members[at]), sample);
        });
      }
    }
    const base = {
      site,
      status: 'likely' as const,
      direction: 'one-way' as const,
      positives: 0,
      negatives: 0,
    };
    const rest = { refinesValid: null, reason: 'likely: parameter substitution support ≥ MS' };
    for (const [param, t] of drops) {
      if (t.similar < params.MS) continue;
      out.push({
        ...base,
        ...rest,
        id: 0,
        kind: 'param-drop',
        param,
        support: t.support,
        likelySimilarSupport: t.similar,
        redundancySupport: t.similar,
        instances: t.instances,
      });
    }
    for (const [key, t] of defaults) {
      if (t.similar < params.MS) continue;
      const [param, value] = key.split('\u0000');
      out.push({
        ...base,
        ...rest,
        id: 0,
        kind: 'param-default',
        param,
        value,
        support: t.support,
        likelySimilarSupport: t.similar,
        redundancySupport: t.similar,
        instances: t.instances,
      });
    }
  }
  out.sort((a, b) => b.likelySimilarSupport - a.likelySimilarSupport || b.support - a.support);
  out.forEach((r, k) => (r.id = firstId + k));
  return out;
}

/**
 * Likely path parameter rules (drop ;name=value), per site: URLs equal once the parameter is dropped
 * form a group with the URL without it when the list has it; each member carrying the parameter is an
 * instance, likely similar when LikelySimilar to that bare URL (else to another member). Only a
 * parameter whose value varies in a group counts there (absent is a value). Likely-similar support
 * ≥ MS, as for query parameters.
 */
export function detectPathParamRules(
  urls: readonly DustUrl[],
  params: DustParams,
  firstId = 0,
): PathParamDropRule[] {
  const out: PathParamDropRule[] = [];
  for (const [site, list] of groupBySite(urls, params.site)) {
    const at = new Map<string, number>();
    const groups = new Map<string, { name: string; bare: number; members: number[]; values: Set<string> }>();
    list.forEach((u, k) => {
      for (const name of pathParamNames(u.url)) {
        const rest = dropPathParam(u.url, name)!;
        const key = `${name}\u0000${rest}`;
        let g = groups.get(key);
        if (!g) {
          if (at.size === 0) list.forEach((v, j) => at.set(v.url, j));
          groups.set(key, (g = { name, bare: at.get(rest) ?? -1, members: [], values: new Set() }));
          if (g.bare >= 0) g.values.add('');
        }
        g.members.push(k);
        const [a, b] = pathSpan(u.url);
        for (const m of u.url.slice(a, b).matchAll(PATH_PARAM)) if (m[1] === name) g.values.add(`=${m[2]}`);
      }
    });
    const drops = new Map<string, Tally>();
    for (const g of groups.values()) {
      if (g.values.size < 2) continue;
      const t = tally(drops, g.name);
      g.members.forEach((m, k) => {
        const ref = g.bare >= 0 ? g.bare : g.members[k === 0 ? 1 : 0];
        if (ref === undefined) return;
        const sim = likelySimilar(list[m], list[ref], params.likelySimilarJaccard);
        count(t, list[m], list[ref], sim, params.instanceSample);
      });
    }
    for (const [param, t] of drops) {
      if (t.similar < params.MS) continue;
      out.push({
        id: 0,
        kind: 'path-param-drop',
        site,
        param,
        support: t.support,
        likelySimilarSupport: t.similar,
        redundancySupport: t.similar,
        status: 'likely',
        direction: 'one-way',
        positives: 0,
        negatives: 0,
        instances: t.instances,
        refinesValid: null,
        reason: 'likely: path parameter removal support ≥ MS',
      });
    }
  }
  out.sort((a, b) => b.likelySimilarSupport - a.likelySimilarSupport || b.support - a.support);
  out.forEach((r, k) => (r.id = firstId + k));
  return out;
}

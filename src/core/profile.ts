/**
 * A dedup profile: the settings an analyst tuned on a sample in the workbench, written down so the
 * same detection runs over a whole crawl elsewhere (`npm run batch`, DuckDB or Spark SQL). It holds the
 * method and its thresholds, every signature parameter with its seeds (EngineParams, embedded whole so
 * new parameters follow), and the valid DUST rules in canonisation order (DustBuster §5.4).
 *
 * Versioned JSON: `{ "profile": "dedup-workbench", "version": 1, … }`. `parseProfile` checks every
 * field and names the one that is wrong, because the file is edited by hand and travels between tools.
 */
import { ENGINE_DEFAULTS, type EngineParams } from './candidates/engine-params';
import {
  DEFAULT_METHOD,
  METHOD_LABELS,
  type MethodId,
  type Thresholds,
  DEFAULT_THRESHOLDS,
} from './candidates/methods';
import { DEFAULT_CLUSTERING, type ClusterMode } from './clusters/view';
import { DUST_DEFAULTS } from './dust/types';
import { canonize, canonizationOrder } from './dust/canonize';
import type { Rule, SiteMode } from './dust/types';
import { registrableDomain } from './url/site';
import { DEFAULT_KEEP, parseKeepPolicy, type KeepKey } from './clusters/kept';
import { LOSES_TEXT_DEFAULT } from './clusters/loses-text';
import { overridesFault, type UrlOverrides } from './clusters/override-urls';

export const PROFILE_KIND = 'dedup-workbench';
export const PROFILE_VERSION = 1;

export interface DedupProfile {
  profile: typeof PROFILE_KIND;
  version: typeof PROFILE_VERSION;
  /** ISO 8601 time of export. */
  created: string;
  /** Where it was tuned (dataset name and pages), for the reader's information only. */
  source: { dataset: string; pages: number };
  method: MethodId;
  thresholds: Thresholds;
  /** The clustering the analyst looked at; the batch join computes connected components (README). */
  clustering: ClusterMode;
  /** The kept-copy policy (clusters/kept.ts), its keys in the order they apply. */
  keep: KeepKey[];
  /**
   * A removed member whose shingles its kept copy lacks beyond this share is flagged `loses-text`
   * (clusters/loses-text.ts), and removed only with removeLosing.
   */
  losesText: number;
  removeLosing: boolean;
  engine: EngineParams;
  /**
   * The analyst's decisions by URL (clusters/override-urls.ts): must-links and cannot-links every
   * clustering honours (clusters/overrides.ts); absent in older profiles.
   */
  overrides?: UrlOverrides;
  dust: {
    /** What a rule's `site` names (DustParams.site). */
    site: SiteMode;
    /** DustBuster §6: canonisation stops after this many iterations. */
    maxIterations: number;
    /** Valid rules only, in canonizationOrder. */
    rules: Rule[];
    /**
     * Classes named by a fetched member other than their rules' form (dust/representatives.ts
     * classNames): rule form → canonical URL, applied after the rules; absent in older profiles.
     */
    names?: [string, string][];
  };
}

export interface ProfileInput {
  dataset: string;
  pages: number;
  method: MethodId;
  thresholds: Thresholds;
  clustering: ClusterMode;
  /** The kept-copy policy; the default when absent. */
  keep?: readonly KeepKey[];
  losesText?: number;
  removeLosing?: boolean;
  engine: EngineParams;
  overrides?: UrlOverrides;
  /** The dataset's last DUST run, if mined. */
  dust: {
    site: SiteMode;
    maxIterations: number;
    rules: readonly Rule[];
    names?: readonly (readonly [string, string])[];
  } | null;
}

/** The profile of the current view: only valid rules travel, in the order canonize applies them. */
export function buildProfile(x: ProfileInput, now = new Date()): DedupProfile {
  return {
    profile: PROFILE_KIND,
    version: PROFILE_VERSION,
    created: now.toISOString(),
    source: { dataset: x.dataset, pages: x.pages },
    method: x.method,
    thresholds: { ...x.thresholds },
    clustering: x.clustering,
    keep: [...(x.keep ?? DEFAULT_KEEP)],
    losesText: x.losesText ?? LOSES_TEXT_DEFAULT,
    removeLosing: x.removeLosing ?? false,
    engine: structuredClone(x.engine),
    ...(x.overrides && (x.overrides.mustLink.length > 0 || x.overrides.cannotLink.length > 0)
      ? { overrides: structuredClone(x.overrides) }
      : {}),
    dust: {
      site: x.dust?.site ?? 'domain',
      maxIterations: x.dust?.maxIterations ?? 10,
      rules: canonizationOrder((x.dust?.rules ?? []).filter((r) => r.status === 'valid')),
      names: (x.dust?.names ?? []).map(([a, b]) => [a, b] as [string, string]),
    },
  };
}

/** A profile that cannot be used, naming the field (`engine.minhash.permutations`) and why. */
export class ProfileError extends Error {
  constructor(
    readonly field: string,
    reason: string,
  ) {
    super(field ? `profile field ${field}: ${reason}` : `profile: ${reason}`);
    this.name = 'ProfileError';
  }
}

type Obj = Record<string, unknown>;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function obj(v: unknown, field: string): Obj {
  if (!isObj(v)) throw new ProfileError(field, `expected an object, got ${describe(v)}`);
  return v;
}

function describe(v: unknown): string {
  if (v === undefined) return 'nothing (the field is missing)';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'string' ? `"${v.slice(0, 40)}"` : `${typeof v} ${String(v).slice(0, 40)}`;
}

function num(v: unknown, field: string, lo = -Infinity, hi = Infinity, integer = false): number {
  if (typeof v !== 'number' || !Number.isFinite(v))
    throw new ProfileError(field, `expected a number, got ${describe(v)}`);
  if (integer && !Number.isInteger(v)) throw new ProfileError(field, `expected a whole number, got ${v}`);
  if (v < lo || v > hi) throw new ProfileError(field, `expected a value in [${lo}, ${hi}], got ${v}`);
  return v;
}

function str(v: unknown, field: string): string {
  if (typeof v !== 'string') throw new ProfileError(field, `expected text, got ${describe(v)}`);
  return v;
}

function oneOf<T extends string>(v: unknown, field: string, values: readonly T[]): T {
  if (typeof v !== 'string' || !values.includes(v as T))
    throw new ProfileError(field, `expected one of ${values.join(', ')}, got ${describe(v)}`);
  return v as T;
}

/**
 * Every field the defaults have must be present with the defaults' type (numbers, booleans, text,
 * nested objects): a profile from an older workbench misses a new parameter and says which one,
 * rather than running with a silently different setting. Extra fields are kept.
 */
function sameShape(v: unknown, ref: unknown, field: string): void {
  if (isObj(ref)) {
    const o = obj(v, field);
    for (const k of Object.keys(ref)) sameShape(o[k], ref[k], `${field}.${k}`);
    // A misspelt field would otherwise be read as its default, silently.
    for (const k of Object.keys(o))
      if (!(k in ref))
        throw new ProfileError(`${field}.${k}`, `no such field (known: ${Object.keys(ref).join(', ')})`);
    return;
  }
  if (typeof ref === 'number') num(v, field);
  else if (typeof ref === 'boolean' && typeof v !== 'boolean')
    throw new ProfileError(field, `expected true or false, got ${describe(v)}`);
  else if (typeof ref === 'string') str(v, field);
}

/** An object's fields are among `known` (the workbench's export writes no others). */
function onlyFields(o: Obj, field: string, known: readonly string[]): void {
  for (const k of Object.keys(o))
    if (!known.includes(k))
      throw new ProfileError(`${field}.${k}`, `no such field (known: ${known.join(', ')})`);
}

function rule(v: unknown, field: string): Rule {
  const r = obj(v, field);
  const kind = oneOf(r.kind, `${field}.kind`, [
    'substring',
    'param-drop',
    'param-default',
    'path-param-drop',
  ] as const);
  num(r.id, `${field}.id`, 0, Infinity, true);
  str(r.site, `${field}.site`);
  if (r.status !== 'valid')
    throw new ProfileError(`${field}.status`, `only valid rules are applied, got ${describe(r.status)}`);
  if (kind === 'substring') {
    for (const side of ['alpha', 'beta'] as const) {
      const list = r[side];
      if (!Array.isArray(list) || list.some((t) => typeof t !== 'string'))
        throw new ProfileError(`${field}.${side}`, `expected a list of URL tokens, got ${describe(list)}`);
    }
  } else {
    str(r.param, `${field}.param`);
    if (kind === 'param-default') str(r.value, `${field}.value`);
  }
  // Where the rule is applied (core/dust/scope.ts): sections, or the URLs it is applied to by name.
  if (r.scope !== undefined) {
    const sc = obj(r.scope, `${field}.scope`);
    for (const key of ['sections', 'urls'] as const) {
      const list = sc[key];
      if (key === 'urls' && list === undefined) continue;
      if (!Array.isArray(list) || list.some((t) => typeof t !== 'string'))
        throw new ProfileError(`${field}.scope.${key}`, `expected a list of strings, got ${describe(list)}`);
    }
    num(sc.applicable, `${field}.scope.applicable`, 0, Infinity, true);
    num(sc.instances, `${field}.scope.instances`, 0, Infinity, true);
  }
  return r as unknown as Rule;
}

const METHODS = Object.keys(METHOD_LABELS) as MethodId[];

/**
 * The workbench's defaults as a profile: what the batch runs without one (`--profile` left out), and
 * what every field a profile leaves out takes.
 */
export function defaultProfile(now = new Date()): DedupProfile {
  return buildProfile(
    {
      dataset: '(defaults)',
      pages: 0,
      method: DEFAULT_METHOD,
      thresholds: DEFAULT_THRESHOLDS,
      clustering: DEFAULT_CLUSTERING,
      engine: ENGINE_DEFAULTS,
      dust: { site: DUST_DEFAULTS.site, maxIterations: DUST_DEFAULTS.maxIterations, rules: [] },
    },
    now,
  );
}

/** v with every field it leaves out taken from ref (objects field by field; lists and values whole). */
function withDefaults(v: unknown, ref: unknown): unknown {
  if (v === undefined) return structuredClone(ref);
  if (!isObj(ref) || !isObj(v)) return v;
  const out: Record<string, unknown> = { ...v };
  for (const k of Object.keys(ref)) out[k] = withDefaults(v[k], ref[k]);
  return out;
}

/**
 * Parse and check a profile's JSON text; throws ProfileError naming the first wrong field.
 * `profile` and `version` say what the file is; every other field may be left out and
 * takes the workbench's default (a profile may give only what it changes). What is given is checked
 * field by field, unknown fields of the thresholds and engine included.
 */
export function parseProfile(text: string): DedupProfile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ProfileError('', `not JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  const given = obj(raw, '(top level)');
  const known = [...Object.keys(defaultProfile()), 'overrides'];
  // A misspelt or unknown field would otherwise be ignored, silently (as sameShape says below).
  for (const k of Object.keys(given))
    if (!known.includes(k)) throw new ProfileError(k, `no such field (known: ${known.join(', ')})`);
  const p = withDefaults(given, defaultProfile()) as Record<string, unknown>;
  if (given.profile !== PROFILE_KIND)
    throw new ProfileError('profile', `expected "${PROFILE_KIND}", got ${describe(given.profile)}`);
  if (given.version !== PROFILE_VERSION)
    throw new ProfileError(
      'version',
      `this tool reads version ${PROFILE_VERSION}, got ${describe(given.version)}`,
    );
  const source = obj(p.source, 'source');
  onlyFields(source, 'source', ['dataset', 'pages', 'app', 'version', 'exported']);
  str(source.dataset, 'source.dataset');
  num(source.pages, 'source.pages', 0, Infinity, true);
  str(p.created, 'created');
  oneOf(p.method, 'method', METHODS);
  sameShape(p.thresholds, DEFAULT_THRESHOLDS, 'thresholds');
  const t = p.thresholds as unknown as Thresholds;
  num(t.jaccard, 'thresholds.jaccard', 0, 1);
  num(t.hamming, 'thresholds.hamming', 0, 64, true);
  oneOf(p.clustering, 'clustering', ['components', 'star', 'guarded'] as const);
  try {
    p.keep = parseKeepPolicy(p.keep, 'keep');
  } catch (e) {
    throw new ProfileError('keep', (e as Error).message.replace(/^keep: /, ''));
  }
  num(p.losesText, 'losesText', 0, 1);
  if (typeof p.removeLosing !== 'boolean')
    throw new ProfileError('removeLosing', `expected true or false, got ${describe(p.removeLosing)}`);
  sameShape(p.engine, ENGINE_DEFAULTS, 'engine');
  const e = p.engine as unknown as EngineParams;
  num(e.minhash.permutations, 'engine.minhash.permutations', 1, 4096, true);
  num(e.minhash.threshold, 'engine.minhash.threshold', 0, 1);
  if (e.minhash.threshold === 0 || e.minhash.threshold === 1)
    throw new ProfileError('engine.minhash.threshold', 'the LSH threshold must be strictly between 0 and 1');
  num(e.minhash.seed, 'engine.minhash.seed', -(2 ** 31), 2 ** 32, true);
  num(e.minhash.fullBucket, 'engine.minhash.fullBucket', 1, 2 ** 31, true);
  num(e.minhash.anchors, 'engine.minhash.anchors', 1, 2 ** 31, true);
  num(e.shingles.w, 'engine.shingles.w', 1, 1000, true);
  if (given.overrides !== undefined) {
    const fault = overridesFault(given.overrides);
    if (fault) throw new ProfileError('overrides', fault);
    const o = given.overrides as Partial<UrlOverrides>;
    p.overrides = { mustLink: o.mustLink ?? [], cannotLink: o.cannotLink ?? [] };
  }
  const dust = obj(p.dust, 'dust');
  onlyFields(dust, 'dust', ['site', 'maxIterations', 'rules', 'names']);
  oneOf(dust.site, 'dust.site', ['host', 'domain', 'list'] as const);
  num(dust.maxIterations, 'dust.maxIterations', 1, 1000, true);
  if (!Array.isArray(dust.rules))
    throw new ProfileError('dust.rules', `expected a list, got ${describe(dust.rules)}`);
  dust.rules.forEach((r, i) => rule(r, `dust.rules[${i}]`));
  if (dust.names !== undefined) {
    if (!Array.isArray(dust.names))
      throw new ProfileError(
        'dust.names',
        `expected a list of [rule form, canonical URL], got ${describe(dust.names)}`,
      );
    dust.names.forEach((n, i) => {
      if (!Array.isArray(n) || n.length !== 2 || typeof n[0] !== 'string' || typeof n[1] !== 'string')
        throw new ProfileError(`dust.names[${i}]`, `expected [rule form, canonical URL], got ${describe(n)}`);
    });
  }
  return p as unknown as DedupProfile;
}

/**
 * The canonical URL of a normalised URL under the profile's rules: the rules of its site in the
 * profile's order, as canonizeAll applies them to the workbench's URL list, then the class's name
 * (dust.names: the fetched member the workbench named it by).
 */
export function profileCanonizer(profile: DedupProfile): (normUrl: string) => string {
  const bySite = new Map<string, Rule[]>();
  for (const r of profile.dust.rules) {
    const list = bySite.get(r.site);
    if (list) list.push(r);
    else bySite.set(r.site, [r]);
  }
  const mode = profile.dust.site;
  const names = new Map(profile.dust.names ?? []);
  const named = (u: string) => names.get(u) ?? u;
  return (normUrl) => {
    if (bySite.size === 0) return named(normUrl);
    let host: string;
    try {
      host = new URL(normUrl).host;
    } catch {
      return normUrl;
    }
    const site = mode === 'host' ? host : mode === 'domain' ? registrableDomain(host) : '';
    const rules = bySite.get(site);
    return named(rules ? canonize(normUrl, rules, profile.dust.maxIterations).url : normUrl);
  };
}

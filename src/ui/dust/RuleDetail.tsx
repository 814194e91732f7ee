import { useMemo, useState } from 'react';
import { ruleInstancesIn, ruleSides } from '../../core/dust';
import { distinguishing } from '../../core/url/distinguish';
import { normaliseUrl } from '../../core/url/normalize';
import { useDust } from '../../state/dust';
import { usePages } from '../../state/pages';
import { escapeBidi, fmtInt, plural } from '../format';
import { TextCompare } from '../TextCompare';
import { RuleSide } from './RuleTable';
import { Url } from '../Url';
import { useListKeys } from '../useListKeys';

/** Instances shown per page of a rule's detail. */
export const INSTANCES_PER_PAGE = 50;

/**
 * A rule's instances: every (u, R(u)) of the dataset's URL list, paged, the negatives validation
 * sampled marked (a refuted or mixed rule is judged on them); one opens the two pages side by side.
 */
export function RuleDetail() {
  const rule = useDust((s) => s.run?.rules.find((r) => r.id === s.selectedRule));
  const pages = usePages((p) => p.pages);
  const datasetId = usePages((p) => p.datasetId);
  const byUrl = useMemo(() => {
    const m = new Map<string, number>();
    for (const p of pages) if (!m.has(p.normUrl)) m.set(p.normUrl, p.seq);
    return m;
  }, [pages]);
  // Every instance in the list (the rule's stored few are a sample); negatives first, so they are seen.
  const all = useMemo(() => {
    if (!rule) return [] as { pair: [string, string]; negative: boolean }[];
    const neg = new Set((rule.negativeSamples ?? []).map(([a, b]) => `${a} ${b}`));
    const found = ruleInstancesIn(rule, [...byUrl.keys()]).map((pair) => ({
      pair,
      negative: neg.has(`${pair[0]} ${pair[1]}`),
    }));
    const shown = new Set(found.map((x) => `${x.pair[0]} ${x.pair[1]}`));
    // Negatives whose R(u) is not in the list (a failed fetch counts against the rule) are listed too.
    const missing = (rule.negativeSamples ?? [])
      .filter(([a, b]) => !shown.has(`${a} ${b}`))
      .map((pair) => ({ pair, negative: true }));
    const list = [...missing, ...found];
    return list.length > 0
      ? [...list.filter((x) => x.negative), ...list.filter((x) => !x.negative)]
      : rule.instances.map((pair) => ({ pair, negative: false }));
  }, [rule, byUrl]);
  const [chosen, setChosen] = useState<{ rule: number; i: number } | null>(null);
  const [page, setPage] = useState<{ rule: number; at: number }>({ rule: -1, at: 0 });
  const at = rule && page.rule === rule.id ? page.at : 0;
  const visible = all.slice(at, at + INSTANCES_PER_PAGE);
  const count = visible.length;
  // The page's URLs by what tells each from the others (core/url/distinguish.ts): an instance's two
  // URLs differ in what the rule rewrites, two instances elsewhere; neither is ever cut away.
  const apart = useMemo(() => distinguishing(visible.flatMap((x) => x.pair)), [visible]);
  const i = rule && chosen && chosen.rule === rule.id ? chosen.i : 0;
  // One tab stop for the instance list: ↑/↓ move to another pair and open it at once.
  const onKeyDown = useListKeys(count, i, (k) => rule && setChosen({ rule: rule.id, i: k }));
  if (!rule || datasetId === null) return null;
  const t = ruleSides(rule);
  const inst = visible[i]?.pair;
  const seqA = inst ? byUrl.get(normaliseUrl(inst[0]).href) : undefined;
  const seqB = inst ? byUrl.get(normaliseUrl(inst[1]).href) : undefined;
  const negatives = all.filter((x) => x.negative).length;
  const turn = (to: number) => {
    setPage({ rule: rule.id, at: to });
    setChosen({ rule: rule.id, i: 0 });
  };
  return (
    <section className="rule-detail" aria-label="Rule instances">
      <h2>
        <RuleSide text={t.alpha} /> → <RuleSide text={t.beta} />{' '}
        <span className={`badge rule-${rule.status}`}>{rule.status}</span>
      </h2>
      <p className="meta">{rule.reason}</p>
      {rule.absorbs && (
        <p className="meta" data-testid="rule-absorbs">
          Absorbs {plural(rule.absorbs.count, 'special case')} (every instance merged by this rule):{' '}
          {escapeBidi(rule.absorbs.spellings.join('; '))}
          {rule.absorbs.count > rule.absorbs.spellings.length ? '; …' : ''}
        </p>
      )}
      <p className="meta" data-testid="rule-instance-count">
        {all.length === 0
          ? 'No instance of this rule in the list.'
          : `Instances ${fmtInt(at + 1)}–${fmtInt(at + count)} of ${fmtInt(all.length)}`}
        {negatives > 0
          ? ` · ${plural(negatives, 'negative')} sampled by validation (not similar), listed first`
          : ''}
        {all.length > INSTANCES_PER_PAGE && (
          <>
            {' '}
            <button
              type="button"
              disabled={at === 0}
              onClick={() => turn(Math.max(0, at - INSTANCES_PER_PAGE))}
            >
              Previous
            </button>{' '}
            <button
              type="button"
              disabled={at + INSTANCES_PER_PAGE >= all.length}
              onClick={() => turn(at + INSTANCES_PER_PAGE)}
            >
              Next
            </button>
          </>
        )}
      </p>
      {count > 0 && apart.shared && (
        <p className="meta" data-testid="instances-origin">
          Every URL below is on {escapeBidi(apart.shared)}: each starts after it.
        </p>
      )}
      {count > 0 && (
        <ol
          className="instances"
          role="listbox"
          aria-label="Instances (u, R(u))"
          tabIndex={0}
          aria-activedescendant={`rule-inst-${i}`}
          onKeyDown={onKeyDown}
          start={at + 1}
        >
          {visible.map(({ pair: [a, b], negative }, k) => (
            <li
              key={at + k}
              id={`rule-inst-${k}`}
              role="option"
              aria-selected={k === i}
              className={`${k === i ? 'selected' : ''}${negative ? ' negative' : ''}`}
              onClick={() => setChosen({ rule: rule.id, i: k })}
            >
              {negative && <span className="badge rule-refuted">not similar</span>}{' '}
              <Url url={a} shown={apart.shown[2 * k]} /> ↔ <Url url={b} shown={apart.shown[2 * k + 1]} />
            </li>
          ))}
        </ol>
      )}
      {inst && seqA !== undefined && seqB !== undefined ? (
        <div className="side-by-side">
          <TextCompare datasetId={datasetId} seqA={seqA} seqB={seqB} />
        </div>
      ) : (
        inst && (
          <p className="empty">One of these URLs has no page in this dataset (URL list without contents).</p>
        )
      )}
    </section>
  );
}

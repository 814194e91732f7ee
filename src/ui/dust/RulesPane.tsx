import { useEffect, useMemo, useRef } from 'react';
import { ruleText } from './format-rule';
import { useDust, type RuleSortKey } from '../../state/dust';
import { drawPrecisionAtK } from '../charts/precision-at-k';
import { csvField, download } from '../download';
import { fmtInt } from '../format';
import { JobProgress } from '../JobProgress';
import { DustParamsPanel } from './DustParamsPanel';
import type { Rule } from '../../core/dust';

const STATUS_RANK = { valid: 0, likely: 1, refuted: 2 } as const;

/** DustBuster's rules: support table, precision@k, headline numbers, exports. */
export function RulesPane() {
  const s = useDust();
  const svg = useRef<SVGSVGElement>(null);
  const run = s.run;
  const hosts = useMemo(() => [...new Set(run?.rules.map((r) => r.site) ?? [])].sort(), [run]);
  const rows = useMemo(() => {
    if (!run) return [];
    const rank = new Map(run.rules.map((r, i) => [r.id, i]));
    const val = (r: Rule, k: RuleSortKey): number | string =>
      k === 'rank'
        ? rank.get(r.id)!
        : k === 'support'
          ? r.support
          : k === 'likely'
            ? r.likelySimilarSupport
            : k === 'status'
              ? STATUS_RANK[r.status]
              : k === 'saved'
                ? (run.saved[r.id] ?? -1)
                : r.site;
    const q = s.ruleFilter.trim();
    const matches = (r: Rule) => {
      if (!q) return true;
      const t = ruleText(r);
      return (
        t.alpha.includes(q) ||
        t.beta.includes(q) ||
        r.instances.some(([a, b]) => a.includes(q) || b.includes(q))
      );
    };
    return run.rules
      .filter((r) => (!s.hostFilter || r.site === s.hostFilter) && matches(r))
      .sort((a, b) => {
        const x = val(a, s.sort.key);
        const y = val(b, s.sort.key);
        return (x < y ? -1 : x > y ? 1 : rank.get(a.id)! - rank.get(b.id)!) * s.sort.dir;
      });
  }, [run, s.hostFilter, s.ruleFilter, s.sort]);

  useEffect(() => {
    if (svg.current && run && run.metrics.precision.length > 0)
      drawPrecisionAtK(svg.current, run.metrics.precision, { width: 260, height: 120 });
  }, [run]);

  if (!run) {
    return (
      <section className="pane pane-dust" aria-label="DUST rules">
        <h2>DUST rules</h2>
        {s.mining ? (
          <Progress />
        ) : (
          <>
            <p className="empty">
              No rules mined yet. DustBuster finds rules like <code>story?id=</code> → <code>story_</code>{' '}
              from this dataset's URL list, validates them against its pages and shows how many URLs each
              would save.
            </p>
            <button type="button" onClick={() => void s.mine()}>
              Mine DUST rules
            </button>
            <DustParamsPanel />
          </>
        )}
        {s.error && (
          <p className="dataset-error" role="alert">
            {s.error}
          </p>
        )}
      </section>
    );
  }
  const m = run.metrics;
  const head = (k: RuleSortKey, label: string) => (
    <th aria-sort={s.sort.key === k ? (s.sort.dir === 1 ? 'ascending' : 'descending') : 'none'}>
      <button type="button" onClick={() => s.setSort(k)}>
        {label}
        {s.sort.key === k ? (s.sort.dir === 1 ? ' ▲' : ' ▼') : ''}
      </button>
    </th>
  );
  return (
    <section className="pane pane-dust" aria-label="DUST rules">
      <div className="pane-head">
        <h2>DUST rules</h2>
        <select aria-label="Rule site" value={s.hostFilter} onChange={(e) => s.setHostFilter(e.target.value)}>
          <option value="">All sites ({hosts.length})</option>
          {hosts.map((h) => (
            <option key={h} value={h}>
              {h || '(list)'}
            </option>
          ))}
        </select>
        <input
          type="search"
          aria-label="Filter rules"
          placeholder="Filter: text or host"
          value={s.ruleFilter}
          onChange={(e) => s.setRuleFilter(e.target.value)}
        />
      </div>
      <p className="meta headline" data-testid="dust-headline">
        Discovered redundancy <b>{(100 * m.redundancy.value).toFixed(1)}%</b> · coverage{' '}
        <b>{m.coverage.value === null ? '–' : `${(100 * m.coverage.value).toFixed(1)}%`}</b> · rules{' '}
        {fmtInt(m.detected)} detected → {fmtInt(m.afterRedundancy)} after redundancy elimination (+
        {fmtInt(m.paramRules)} parameter
        {m.pairRules ? `, +${fmtInt(m.pairRules)} from pairs of identical pages` : ''}) → {fmtInt(m.valid)}{' '}
        valid
        {m.precision.length >= 10 ? ` · precision@10 ${(100 * m.precision[9]).toFixed(0)}%` : ''}
      </p>
      <p className="meta" data-testid="dust-list">
        {fmtInt(run.list.urls)} unique URLs
        {run.list.split === false
          ? ` — fewer than ${fmtInt(run.params.splitMinUrls ?? 20_000)}: detection and validation both read the whole list`
          : ` — ${fmtInt(run.list.detection)} for detection, ${fmtInt(run.list.validation)} held out for validation`}
        {run.list.redirects ? ` · ${fmtInt(run.list.redirects)} redirects read as their targets` : ''}
        {' · sites by '}
        {run.params.site === 'domain'
          ? 'registrable domain'
          : run.params.site === 'host'
            ? 'host'
            : 'the whole list'}
      </p>
      {!run.hasContent && (
        <p className="meta">
          This dataset has no page contents (a URL list or access log): rules stay <i>likely</i>, supported by
          size ranges only, and cannot be validated.
        </p>
      )}
      {m.precision.length > 0 && <svg ref={svg} role="img" aria-label="precision at k" />}
      <div className="rules-scroll">
        <table className="rules" aria-label="Rules">
          <thead>
            <tr>
              {head('rank', '#')}
              <th>α → β</th>
              {head('site', 'Site')}
              {head('support', 'Support')}
              {head('likely', 'Likely-similar')}
              {head('status', 'Status')}
              {head('saved', 'URLs saved')}
            </tr>
          </thead>
          <tbody>
            {rows.map((r, i) => {
              const t = ruleText(r);
              return (
                <tr
                  key={r.id}
                  className={s.selectedRule === r.id ? 'selected' : ''}
                  onClick={() => s.selectRule(s.selectedRule === r.id ? null : r.id)}
                >
                  <td>{i + 1}</td>
                  <td className="rule" title={r.reason}>
                    <code>{t.alpha}</code> → <code>{t.beta}</code>
                    {r.direction === 'growing' ? ' (growing)' : ''}
                    {r.kind === 'substring' && r.origin === 'pairs' && (
                      <span
                        className="badge"
                        title="derived from pairs of identical pages (not in the paper)"
                      >
                        pairs
                      </span>
                    )}
                  </td>
                  <td>{r.site}</td>
                  <td>{fmtInt(r.support)}</td>
                  <td>{fmtInt(r.likelySimilarSupport)}</td>
                  <td>
                    <span className={`badge rule-${r.status}`}>{r.status}</span>{' '}
                    <span className="meta">
                      +{r.positives}/−{r.negatives}
                    </span>
                  </td>
                  <td>{run.saved[r.id] === undefined ? '–' : fmtInt(run.saved[r.id])}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      <div className="pane-foot">
        {s.mining ? (
          <Progress />
        ) : (
          <>
            <button type="button" onClick={() => void s.mine()}>
              Mine again
            </button>{' '}
            <button type="button" onClick={() => exportRules(run)}>
              Export rules (JSON)
            </button>{' '}
            <button type="button" onClick={() => exportCanonical(run)}>
              Export canonical URLs (CSV)
            </button>
            <DustParamsPanel />
          </>
        )}
      </div>
    </section>
  );
}

function exportRules(run: NonNullable<ReturnType<typeof useDust.getState>['run']>) {
  const rules = run.rules.map((r) => ({ ...r, ...ruleText(r), saved: run.saved[r.id] ?? null }));
  download(
    'dust-rules.json',
    'application/json',
    JSON.stringify({ params: run.params, metrics: run.metrics, list: run.list, rules }, null, 2),
  );
}

function exportCanonical(run: NonNullable<ReturnType<typeof useDust.getState>['run']>) {
  const lines = ['url,canonical', ...run.canonical.map(([u, c]) => `${csvField(u)},${csvField(c)}`)];
  download('canonical-urls.csv', 'text/csv', lines.join('\n') + '\n');
}

function Progress() {
  const p = useDust((s) => s.progress);
  const cancel = useDust((s) => s.cancel);
  return (
    <JobProgress
      label="DUST progress"
      pct={p && p.total ? (100 * p.done) / p.total : 5}
      text={p ? `${p.phase}${p.total ? `: ${fmtInt(p.done)} of ${fmtInt(p.total)}` : ''}` : 'starting…'}
      onCancel={cancel}
    />
  );
}

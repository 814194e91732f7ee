import { useDatasets } from '../../state/datasets';
import { useEffect, useMemo, useRef } from 'react';
import { ruleSides, type Rule } from '../../core/dust';
import type { StoredDustRun } from '../../db/schema';
import type { PartnerReport } from '../../core/dust/sample-dust';
import { useDust, type RuleSortKey } from '../../state/dust';
import { usePages } from '../../state/pages';
import { drawPrecisionAtK } from '../charts/precision-at-k';
import { canonicalTable, crawlerRegexFile, rulesJson } from '../../core/dust/outputs';
import { formatDelimited } from '../../core/csv';
import { download } from '../download';
import { dustTags, exportFileName, exportSource, jsonText } from '../exports';
import { fmtBytes, fmtInt, plural } from '../format';
import { HiddenFileInput } from '../FileButton';
import { Choice, SearchBox } from '../Controls';
import { JobProgress } from '../JobProgress';
import { JobInterrupted } from '../JobInterrupted';
import { PaneStart } from '../PaneStart';
import { DustParamsPanel } from './DustParamsPanel';
import { RuleTable } from './RuleTable';
import { summariseValidation, urlOnlyNote } from './validation-note';
import { selectedDataset } from '../../state/selectors';

const STATUS_RANK = { valid: 0, likely: 1, refuted: 2 } as const;

/** DustBuster's rules: support table, precision@k, headline numbers, exports. */
export function RulesPane() {
  const run = useDust((s) => s.run);
  const mining = useDust((s) => s.mining);
  const error = useDust((s) => s.error);
  const mine = useDust((s) => s.mine);
  const interrupted = useDust((s) => (s.mining ? null : s.interrupted));
  const interruptedNote = (
    <JobInterrupted
      since={interrupted}
      doing="Mining DUST rules"
      onRestart={() => void mine()}
      onDismiss={useDust.getState().dismissInterrupted}
      testId="dust-interrupted"
    />
  );
  const hostFilter = useDust((s) => s.hostFilter);
  const setHostFilter = useDust((s) => s.setHostFilter);
  const ruleFilter = useDust((s) => s.ruleFilter);
  const setRuleFilter = useDust((s) => s.setRuleFilter);
  const sort = useDust((s) => s.sort);
  const showUnvalidated = useDust((s) => s.showUnvalidated);
  const setShowUnvalidated = useDust((s) => s.setShowUnvalidated);
  const dataset = useDatasets(selectedDataset);
  const svg = useRef<SVGSVGElement>(null);
  const hosts = useMemo(() => [...new Set(run?.rules.map((r) => r.site) ?? [])].sort(), [run]);
  const rows = useMemo(
    () => (run ? visibleRules(run, hostFilter, ruleFilter, sort, showUnvalidated) : []),
    [run, hostFilter, ruleFilter, sort, showUnvalidated],
  );
  const unvalidated = useMemo(() => run?.rules.filter((r) => r.sample).length ?? 0, [run]);

  useEffect(() => {
    if (svg.current && run && run.metrics.precision.length > 0)
      drawPrecisionAtK(svg.current, run.metrics.precision, { width: 240, height: 90 });
  }, [run]);

  if (!run) {
    return (
      <PaneStart
        className="pane-dust"
        title="DUST rules"
        running={mining}
        progress={<Progress />}
        error={error}
      >
        {interruptedNote}
        <p className="empty">
          No rules mined yet. DustBuster finds rules like <code>story?id=</code> → <code>story_</code> from
          this dataset's URL list, validates them against its pages and shows how many URLs each would save.
        </p>
        <button type="button" onClick={() => void mine()}>
          Mine DUST rules
        </button>
        <DustParamsPanel />
      </PaneStart>
    );
  }
  const m = run.metrics;
  const sample = dataset?.sample;
  const samplePages = dataset?.pages ?? 0;
  return (
    <section className="pane pane-dust" aria-label="DUST rules">
      <div className="pane-head">
        <h2>DUST rules</h2>
        <Choice
          label="Rule site"
          value={hostFilter}
          options={hosts}
          text={(h) => h || '(list)'}
          all={`All sites (${hosts.length})`}
          onChange={setHostFilter}
        />
        <SearchBox
          label="Filter rules"
          placeholder="Filter: text or host"
          value={ruleFilter}
          onChange={setRuleFilter}
        />
      </div>
      {interruptedNote}
      <p className="meta headline" data-testid="dust-headline">
        Discovered redundancy <b>{(100 * m.redundancy.value).toFixed(1)}%</b>
        {sample && (
          <span data-testid="dust-redundancy-scope">
            {' '}
            in the crawl index’s {fmtInt(m.redundancy.before)} URLs, by the rules validated on the sample (not
            the whole-crawl duplicate estimate, which counts pages with the same text)
          </span>
        )}{' '}
        · coverage <b>{m.coverage.value === null ? '–' : `${(100 * m.coverage.value).toFixed(1)}%`}</b> ·
        rules {fmtInt(m.detected)} detected → {fmtInt(m.afterRedundancy)} after redundancy elimination (+
        {fmtInt(m.paramRules)} parameter
        {m.pairRules ? `, +${fmtInt(m.pairRules)} from pairs of identical pages` : ''}) → {fmtInt(m.valid)}{' '}
        valid
        {m.precision.length >= 10 ? ` · precision@10 ${(100 * m.precision[9]).toFixed(0)}%` : ''}
      </p>
      <p className="meta" data-testid="dust-saved">
        {fmtInt(m.redundancy.before)} → {plural(m.redundancy.after, 'URL')} after canonisation:{' '}
        <b>{plural(m.redundancy.before - m.redundancy.after, 'URL')} saved</b>, each counted once under the
        first rule that rewrites it
        {m.folded || m.compositions
          ? ` · not listed: ${plural(m.folded, 'special case')} (folded under the rule that covers it)${m.compositions ? `, ${plural(m.compositions, 'composition')} of valid rules` : ''}`
          : ''}
      </p>
      {run.renamed && (
        <p className="meta" data-testid="dust-canonical">
          Canonical URLs: every one a URL the crawl fetched with a 2xx
          {run.unfetched?.length
            ? `, but for ${plural(run.unfetched.length, 'class', 'classes')} none of whose URLs was (flagged in the export)`
            : ''}
          {run.renamedClasses
            ? ` · ${plural(run.renamedClasses, 'class', 'classes')} named by a fetched member rather than the rules’ form (the redirect target, the rules’ form, the most linked, the shortest)`
            : ''}
          {run.rules.some((r) => r.scope)
            ? ` · ${plural(
                run.rules.filter((r) => r.scope).length,
                'valid rule',
              )} applied only where it held (see each rule’s scope)`
            : ''}
        </p>
      )}
      {sample && (
        <p className="meta" data-testid="dust-url-layer">
          A sample: rules mined on every HTML URL of the crawl’s index ({fmtInt(sample.population.pages)}, its
          URL layer), validated on the {fmtInt(samplePages)} sampled pages — the only ones with a document
          {run.partners?.state === 'read'
            ? ' — and on the partners of sampled URLs read from the crawl’s files'
            : ''}
          .
        </p>
      )}
      {sample && run.partners && <PartnersNote report={run.partners} />}
      {sample && unvalidated > 0 && (
        <label className="meta" data-testid="dust-show-unvalidated">
          <input
            type="checkbox"
            checked={showUnvalidated}
            onChange={(e) => setShowUnvalidated(e.target.checked)}
          />{' '}
          Show the {plural(unvalidated, 'rule', 'rules')} not validated: too few of{' '}
          {unvalidated === 1 ? 'its' : 'their'} instances have both URLs in hand (hidden by default)
        </label>
      )}
      <p className="meta" data-testid="dust-list">
        {plural(run.list.urls, 'unique URL')}
        {run.list.split === false
          ? ` — fewer than ${fmtInt(run.params.splitMinUrls ?? 20_000)}: detection and validation both read the whole list`
          : ` — ${fmtInt(run.list.detection)} for detection, ${fmtInt(run.list.validation)} held out for validation`}
        {run.list.redirects
          ? ` · ${plural(run.list.redirects, 'redirect read as its target', 'redirects read as their targets')}`
          : ''}
        {' · sites by '}
        {run.params.site === 'domain'
          ? 'registrable domain'
          : run.params.site === 'host'
            ? 'host'
            : 'the whole list'}
      </p>
      {!run.hasContent && <UrlOnlyNote run={run} />}
      {m.precision.length > 0 && <svg ref={svg} role="img" aria-label="precision at k" />}
      <div className="rules-scroll">
        <RuleTable rows={rows} saved={run.saved} only={run.only} />
        {rows.length === 0 && unvalidated > 0 && !showUnvalidated && (
          <p className="empty" data-testid="dust-none-validated">
            No rule was validated on this sample: {plural(unvalidated, 'rule is', 'rules are')} hidden, none
            with enough instances whose two pages are in hand.
          </p>
        )}
      </div>
      <div className="pane-foot">
        {mining ? (
          <Progress />
        ) : (
          <>
            <button type="button" onClick={() => void mine()}>
              Mine again
            </button>{' '}
            <button type="button" onClick={() => exportRules(run)}>
              Export rules (JSON)
            </button>{' '}
            <button type="button" onClick={() => exportCanonical(run)}>
              Export canonical URLs (CSV)
            </button>{' '}
            <button
              type="button"
              title="The valid rules as ordered regex search/replace rules (regex-normalize.xml), as Nutch's and StormCrawler's regex URL normalisers and Heritrix's RegexRule read them"
              onClick={() => exportRegex(run)}
            >
              Export rules for crawlers (regex)
            </button>
            <DustParamsPanel />
          </>
        )}
      </div>
    </section>
  );
}

/** Rules of the site and text filters, in the chosen order (rank breaks ties, so the order is stable). */
export function visibleRules(
  run: Pick<StoredDustRun, 'rules' | 'saved' | 'only'>,
  hostFilter: string,
  ruleFilter: string,
  sort: { key: RuleSortKey; dir: 1 | -1 },
  /** Whether rules a sample could not validate (Rule.sample) are listed. */
  showUnvalidated = true,
): Rule[] {
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
              : k === 'adds'
                ? (run.only?.[r.id] ?? -1)
                : r.site;
  const q = ruleFilter.trim();
  const matches = (r: Rule) => {
    if (!q) return true;
    const t = ruleSides(r);
    return (
      t.alpha.includes(q) ||
      t.beta.includes(q) ||
      r.instances.some(([a, b]) => a.includes(q) || b.includes(q))
    );
  };
  return run.rules
    .filter((r) => (!hostFilter || r.site === hostFilter) && (showUnvalidated || !r.sample) && matches(r))
    .sort((a, b) => {
      const x = val(a, sort.key);
      const y = val(b, sort.key);
      return (x < y ? -1 : x > y ? 1 : rank.get(a.id)! - rank.get(b.id)!) * sort.dir;
    });
}

/**
 * A sample's partner read (core/dust/sample-dust.ts): what was read to validate the rules, or why
 * nothing was; when the crawl's files are not at hand, a button to choose them and mine again.
 */
function PartnersNote({ report: p }: { report: PartnerReport }) {
  const mine = useDust((s) => s.mine);
  const mining = useDust((s) => s.mining);
  const input = useRef<HTMLInputElement>(null);
  const not = `${plural(p.likelyBefore, 'rule')} the sampled pages alone could not validate`;
  return (
    <p className="meta" data-testid="dust-partners">
      {p.state === 'read' && (
        <>
          Partners read: {plural(p.read, 'page')} by byte range from the crawl’s files ({fmtBytes(p.bytes)} in{' '}
          {plural(p.ranges, 'range')}, {(p.ms / 1000).toFixed(1)} s), the other URL of instances one URL of
          which was sampled, for {fmtInt(p.rules)} of the {not}; at most {fmtInt(p.caps.perRule)} a rule (the
          paper’s N) and {fmtInt(p.caps.records)} in all
          {p.capped ? ` (capped: ${fmtInt(p.wanted)} asked for)` : ''}. Validation samples judged:{' '}
          {fmtInt(p.judgedBefore)} → {fmtInt(p.judgedAfter)}.
        </>
      )}
      {p.state === 'none' &&
        `No partner to read: of the ${not}, none has an instance with one URL in the sample.`}
      {p.state === 'no-places' &&
        `Partners not read: this sample was read before the workbench kept where each URL’s record is. Open the crawl again (Open a large crawl…) to validate its rules on the partners of sampled URLs.`}
      {p.state === 'no-files' && (
        <>
          Partners not read: {plural(p.asked, 'partner')} of sampled URLs would be read for {fmtInt(p.rules)}{' '}
          of the {not}, but the crawl’s files are not open in this tab (a reload forgets them).{' '}
          <button type="button" disabled={mining} onClick={() => input.current?.click()}>
            Choose the crawl’s files…
          </button>
          <HiddenFileInput
            ref={input}
            multiple
            label="The crawl’s WARC files (or WACZ) this sample was read from"
            onFiles={(f) => void mine(f)}
          />
        </>
      )}
    </p>
  );
}

/** For a dataset without page contents: what was detected, validated and left likely, and why. */
function UrlOnlyNote({ run }: { run: StoredDustRun }) {
  const pages = usePages((p) => p.pages);
  const lines = useMemo(() => {
    let withDigest = 0;
    let withError = 0;
    for (const p of pages) {
      if (p.digest) withDigest++;
      if (p.statuses.some((s) => s >= 400)) withError++;
    }
    return urlOnlyNote(summariseValidation(run.rules), {
      urls: pages.length,
      withDigest,
      withError,
      missingIsNegative: run.params.missingIsNegative,
    });
  }, [pages, run]);
  return (
    <div className="meta url-only-note" data-testid="dust-url-only">
      {lines.map((l, i) => (
        <p key={i}>{l}</p>
      ))}
    </div>
  );
}

function exportRules(run: StoredDustRun) {
  // The same spelling as the table and the CLI's report (core ruleSpelling), beside the token runs.
  download(
    exportFileName(dustTags(run.params), 'dust-rules', 'json'),
    'application/json',
    jsonText(rulesJson(run, run.saved, run.only, exportSource({ ...run.params }))),
  );
}

function exportRegex(run: StoredDustRun) {
  download(
    // Nutch reads regex-normalize.xml (urlnormalizer.regex.file): the name ends with it, to rename.
    exportFileName(dustTags(run.params), 'regex-normalize', 'xml'),
    'application/xml',
    crawlerRegexFile(run),
  );
}

function exportCanonical(run: StoredDustRun) {
  download(
    exportFileName(dustTags(run.params), 'canonical-urls', 'csv'),
    'text/csv',
    formatDelimited(canonicalTable(run)),
  );
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

import { useEffect, useMemo, useState } from 'react';
import { rulesExplaining } from '../../core/dust/cluster-kind';
import { ruleSpelling } from '../../core/dust';
import { pairMeasures, shingleHighlights, type Segment } from '../../core/eval/evidence';
import { useAnalysis } from '../../state/analysis';
import { capturesOf as capturesOfAnalysis } from '../../state/clusters';
import { useDust } from '../../state/dust';
import { pageContent, templateSplit, usePages } from '../../state/pages';
import { pageBySeq, seqIndex } from '../../state/selectors';
import { download } from '../download';
import { exportFileName } from '../exports';
import { escapeBidi, fmtInt, fmtWhen } from '../format';

/**
 * Why this pair is, or is not, called a duplicate (core/eval/evidence.ts): every method's measure beside
 * its threshold, the word shingles the two compared texts share (marked) and those only one has, the
 * DUST rules linking the URLs, each page's captures. The template lines left out are listed under the
 * texts (TextCompare). Exported as JSON for the pair; the labels' JSON export carries the same evidence.
 */
export function EvidenceCard({
  datasetId,
  seqA,
  seqB,
  pairIndex,
}: {
  datasetId: number;
  seqA: number;
  seqB: number;
  pairIndex: number | null;
}) {
  const analysis = useAnalysis((s) => s.analysis);
  const method = useAnalysis((s) => s.method);
  const t = useAnalysis((s) => s.thresholds);
  const pages = usePages((s) => s.pages);
  const rules = useDust((s) => s.run?.rules ?? null);
  const canonical = useDust((s) => s.canonical);
  const [open, setOpen] = useState(false);
  const [texts, setTexts] = useState<{ key: string; a: string; b: string } | null>(null);
  const key = `${datasetId}:${seqA}:${seqB}`;
  const bySeq = useMemo(() => pageBySeq(pages), [pages]);
  useEffect(() => {
    if (!open) return;
    let live = true;
    const main = async (seq: number) => {
      const c = await pageContent(datasetId, seq);
      const page = bySeq.get(seq);
      if (!c?.text || !page) return c?.text ?? '';
      return (await templateSplit(datasetId, pages, page.normUrl, c)).main;
    };
    void Promise.all([main(seqA), main(seqB)]).then(([a, b]) => live && setTexts({ key, a, b }));
    return () => {
      live = false;
    };
  }, [open, datasetId, seqA, seqB, key, bySeq, pages]);
  const w = analysis?.params.shingles.w ?? 5;
  const marks = useMemo(
    () => (texts && texts.key === key ? shingleHighlights(texts.a, texts.b, w) : null),
    [texts, key, w],
  );
  if (!analysis) return null;
  const pa = bySeq.get(seqA);
  const pb = bySeq.get(seqB);
  const measures = pairIndex === null ? [] : pairMeasures(analysis.pairs, pairIndex, t);
  const linking =
    rules && pa && pb ? rulesExplaining(rules, [pa.url, pb.url]).map((r) => ruleSpelling(r)) : [];
  const captures = capturesOfAnalysis(analysis);
  const index = seqIndex(analysis);
  const capturesOf = (seq: number) =>
    (captures.get(index.get(seq) ?? -1) ?? [seq]).map((s) => bySeq.get(s)?.fetchedAt ?? '');
  const evidence = () => ({
    a: pa?.url ?? '',
    b: pb?.url ?? '',
    measures: measures.map(({ method: m, value, rule, passes }) => ({ method: m, value, rule, passes })),
    shingles: marks ? { w, shared: marks.shared, onlyA: marks.onlyA, onlyB: marks.onlyB } : undefined,
    rules: linking,
    canonical: [
      canonical.get(pa?.normUrl ?? '') ?? pa?.normUrl,
      canonical.get(pb?.normUrl ?? '') ?? pb?.normUrl,
    ],
    captures: [capturesOf(seqA), capturesOf(seqB)],
  });
  return (
    <details
      className="evidence"
      data-testid="evidence-card"
      open={open}
      onToggle={(e) => setOpen(e.currentTarget.open)}
    >
      <summary>Evidence: why this pair is or is not called a duplicate</summary>
      {pairIndex === null ? (
        <p className="meta">No candidate generator proposed this pair: no method measured it.</p>
      ) : (
        <table className="evidence-measures">
          <thead>
            <tr>
              <th>Method: measure</th>
              <th>Value</th>
              <th>Accepts when</th>
              <th>Passes</th>
            </tr>
          </thead>
          <tbody>
            {measures.map((m) => (
              <tr key={m.method} className={m.method === method ? 'chosen' : undefined}>
                <td>{m.name}</td>
                <td>{m.value}</td>
                <td>{m.rule}</td>
                <td className={m.passes ? 'pass' : 'fail'}>{m.passes ? 'yes' : 'no'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <p className="meta" data-testid="evidence-rules">
        {rules === null
          ? 'DUST rules not mined: whether the two URLs are aliases is not known.'
          : linking.length > 0
            ? `DUST rules linking the two URLs: ${linking.map(escapeBidi).join('; ')}.`
            : 'No valid DUST rule links the two URLs.'}
      </p>
      <p className="meta" data-testid="evidence-captures">
        Captures: A {fmtInt(capturesOf(seqA).length)} ({capturesOf(seqA).map(fmtWhen).join(', ')}), B{' '}
        {fmtInt(capturesOf(seqB).length)} ({capturesOf(seqB).map(fmtWhen).join(', ')}).
      </p>
      {marks && (
        <>
          <p className="meta" data-testid="evidence-shingles">
            Word {w}-shingles of the compared texts (template left out): {fmtInt(marks.shared)} shared,{' '}
            {fmtInt(marks.onlyA)} only in A, {fmtInt(marks.onlyB)} only in B. Marked below: words in a shared
            shingle, <span className="own">words only in shingles of their own page</span>.
          </p>
          <div className="columns evidence-texts">
            <Marked segments={marks.a} />
            <Marked segments={marks.b} />
          </div>
        </>
      )}
      <button
        type="button"
        onClick={() =>
          download(
            exportFileName([`pages-${seqA}-${seqB}`], 'evidence', 'json'),
            'application/json',
            JSON.stringify(evidence(), null, 2) + '\n',
          )
        }
      >
        Export evidence (JSON)
      </button>
    </details>
  );
}

/** A text with its words marked shared or own: text nodes only, never markup. */
function Marked({ segments }: { segments: Segment[] }) {
  return (
    <pre className="page-text">
      {segments.map((s, i) =>
        s.shared === true ? (
          <mark key={i} className="shared">
            {escapeBidi(s.text)}
          </mark>
        ) : s.shared === false ? (
          <span key={i} className="own">
            {escapeBidi(s.text)}
          </span>
        ) : (
          escapeBidi(s.text)
        ),
      )}
    </pre>
  );
}

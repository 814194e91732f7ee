import { useCallback, useEffect, useMemo, useState } from 'react';
import { useDust } from '../../state/dust';
import { evidenceOf } from '../../state/label-estimates';
import { encodeLabelsCsv, encodeLabelsJson } from '../../core/eval/labels-codec';
import { splinkLabelsParquet } from '../../core/eval/labels-foreign';
import { pairKey } from '../../core/eval/pair-key';
import type { Strategy } from '../../core/eval/sampling';
import { useAnalysis } from '../../state/analysis';
import { useLabels } from '../../state/labels';
import { usePages } from '../../state/pages';
import { pageBySeq, seqOfUrl } from '../../state/selectors';
import { download } from '../download';
import { labelsFileName, labelsSource } from '../exports';
import { TextCompare } from '../TextCompare';
import { plural } from '../format';
import { Url } from '../Url';
import { pairShown } from '../../core/url/distinguish';
import { LabelEstimatesLine } from './LabelEstimatesLine';
import { LABEL_KEYS, LabelsList } from './LabelsList';
import { fromDecoded, fromFile, importMessage, toRecords } from './labels-file';
import { FileButton } from '../FileButton';

/**
 * Hand labels of candidate pairs, side by side, with the keyboard: d duplicate, n not, u unsure,
 * z undo, ←/→ move. Labels are stored per dataset with their sampling strategy and inclusion probability;
 * the list below reviews and corrects them. Blind labelling hides the pair's scores until it has a label,
 * so a Jaccard of 0.79 does not decide what the texts should. The estimates from the labels, at the
 * chosen method and thresholds, sit at the top and follow each label (the PR pane shows the same line).
 */
export function LabelView() {
  const analysis = useAnalysis((s) => s.analysis);
  const jaccardThreshold = useAnalysis((s) => s.thresholds.jaccard);
  const thresholds = useAnalysis((s) => s.thresholds);
  const dustRules = useDust((s) => s.run?.rules ?? null);
  const labels = useLabels((s) => s.labels);
  const queue = useLabels((s) => s.queue);
  const position = useLabels((s) => s.position);
  const strategy = useLabels((s) => s.strategy);
  const blind = useLabels((s) => s.blind);
  const setBlind = useLabels((s) => s.setBlind);
  const start = useLabels((s) => s.start);
  const label = useLabels((s) => s.label);
  const undo = useLabels((s) => s.undo);
  const move = useLabels((s) => s.move);
  const importLabels = useLabels((s) => s.importLabels);
  const pages = usePages((p) => p.pages);
  const datasetId = usePages((p) => p.datasetId);
  // Shared indexes of the pages (state/pages.ts); a URL fetched more than once is its earliest capture.
  const bySeq = pageBySeq(pages);
  const byUrl = seqOfUrl(pages);
  const urlOf = useCallback((seq: number) => bySeq.get(seq)?.url, [bySeq]);
  const [notice, setNotice] = useState('');
  const item = queue[position];
  const k = item?.pair;
  const seqA = analysis && k !== undefined ? analysis.seqs[analysis.pairs.a[k]] : undefined;
  const seqB = analysis && k !== undefined ? analysis.seqs[analysis.pairs.b[k]] : undefined;
  const existing = seqA !== undefined && seqB !== undefined ? labels.get(pairKey(seqA, seqB)) : undefined;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (
        !analysis ||
        e.ctrlKey ||
        e.metaKey ||
        e.altKey ||
        (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) ||
        // A list (the labels list, the page table) has its own keys.
        target?.closest?.('[role="listbox"], [role="grid"]')
      )
        return;
      if (LABEL_KEYS[e.key]) {
        e.preventDefault();
        void label(analysis, LABEL_KEYS[e.key]);
      } else if (e.key === 'z') void undo();
      else if (e.key === 'ArrowRight') move(1);
      else if (e.key === 'ArrowLeft') move(-1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [analysis, label, undo, move]);

  const counts = useMemo(() => {
    const c = { dup: 0, not: 0, unsure: 0 };
    for (const l of labels.values()) c[l.label]++;
    return c;
  }, [labels]);

  if (!analysis || datasetId === null) return null;
  const records = () => toRecords([...labels.values()], urlOf);
  const importFile = async (f: File) => {
    const head = new Uint8Array(await f.slice(0, 4).arrayBuffer());
    const parquet = head.length === 4 && String.fromCharCode(...head) === 'PAR1';
    const seqOf = (u: string) => byUrl.get(u);
    const hasSeq = (s: number) => bySeq.has(s);
    const r = parquet
      ? fromDecoded(await splinkLabelsParquet(await f.arrayBuffer()), datasetId, seqOf, hasSeq)
      : fromFile(await f.text(), datasetId, seqOf, hasSeq);
    setNotice(importMessage(await importLabels(r.rows), r.notes));
  };
  const showScores = !blind || existing !== undefined;
  return (
    <section className="label-view" aria-label="Label pairs">
      <div className="pane-head">
        <h2>Label pairs</h2>
        <select
          aria-label="Sampling strategy"
          value={strategy}
          onChange={(e) => start(analysis, e.target.value as Strategy, jaccardThreshold)}
        >
          <option value="stratified">stratified by similarity (unbiased estimates)</option>
          <option value="near-threshold">near the threshold (most informative)</option>
          <option value="random">random</option>
        </select>
        <button type="button" onClick={() => start(analysis, strategy, jaccardThreshold)}>
          New queue
        </button>
        <label title="Hide Jaccard, cosine and the other scores until the pair has a label">
          <input type="checkbox" checked={blind} onChange={(e) => setBlind(e.target.checked)} /> blind
          labelling
        </label>
        <span className="meta" data-testid="label-progress">
          {queue.length ? `${Math.min(position + 1, queue.length)} of ${queue.length} in queue · ` : ''}
          {plural(labels.size, 'label')} ({counts.dup} duplicate, {counts.not} not, {counts.unsure} unsure)
        </span>
      </div>
      <LabelEstimatesLine testId="label-estimates" />
      {!item ? (
        <p className="empty">
          {queue.length
            ? 'Queue done. Start a new one.'
            : 'Start a queue to label candidate pairs: keys d duplicate, n not, u unsure, z undo, ←/→ move.'}
        </p>
      ) : (
        <>
          <p className="meta pair-measures">
            <Url url={urlOf(seqA!)} shown={pairShown(urlOf(seqA!), urlOf(seqB!))[0]} expandable /> ↔{' '}
            <Url url={urlOf(seqB!)} shown={pairShown(urlOf(seqA!), urlOf(seqB!))[1]} expandable />
            {showScores ? (
              <>
                {' '}
                · Jaccard {analysis.pairs.jaccard[k!].toFixed(3)} · cosine{' '}
                {analysis.pairs.cosine[k!].toFixed(3)} · ‖ΔR‖∞ {analysis.pairs.dR[k!].toFixed(3)} · ‖ΔX‖∞{' '}
                {analysis.pairs.dX[k!].toFixed(3)}
              </>
            ) : (
              <> · scores hidden until labelled</>
            )}{' '}
            · {item.strategy}
            {Number.isFinite(item.pi) ? `, π = ${item.pi.toPrecision(2)}` : ''}
            {existing ? ` · labelled: ${existing.label}` : ''}
          </p>
          <div className="label-keys">
            <button type="button" onClick={() => void label(analysis, 'dup')}>
              <kbd>d</kbd>/<kbd>y</kbd> duplicate
            </button>
            <button type="button" onClick={() => void label(analysis, 'not')}>
              <kbd>n</kbd> not
            </button>
            <button type="button" onClick={() => void label(analysis, 'unsure')}>
              <kbd>u</kbd> unsure
            </button>
            <button type="button" onClick={() => void undo()}>
              <kbd>z</kbd> undo
            </button>
            <button type="button" aria-label="Previous pair" onClick={() => move(-1)}>
              ←
            </button>
            <button type="button" aria-label="Next pair" onClick={() => move(1)}>
              →
            </button>
          </div>
          <div className="side-by-side">
            <TextCompare datasetId={datasetId} seqA={seqA!} seqB={seqB!} />
          </div>
        </>
      )}
      <LabelsList urlOf={urlOf} />
      <p className="meta">
        <button
          type="button"
          onClick={() =>
            download(
              labelsFileName('json'),
              'application/json',
              encodeLabelsJson(
                toRecords([...labels.values()], urlOf, (x, y) =>
                  evidenceOf(analysis, x, y, urlOf, dustRules, thresholds),
                ),
                labelsSource(),
              ),
            )
          }
        >
          Export labels (JSON)
        </button>{' '}
        <button
          type="button"
          onClick={() => download(labelsFileName('csv'), 'text/csv', encodeLabelsCsv(records()))}
        >
          Export labels (CSV)
        </button>{' '}
        <FileButton accept=".json,.csv,.parquet" testId="labels-file" onFiles={(f) => void importFile(f[0])}>
          Import labels…
        </FileButton>
        {notice && (
          <span role="status" className="meta">
            {' '}
            {notice}
          </span>
        )}
      </p>
    </section>
  );
}

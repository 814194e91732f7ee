import { useEffect, useMemo, useRef } from 'react';
import type { LabelValue } from '../../core/eval/estimators';
import type { Strategy } from '../../core/eval/sampling';
import { useAnalysis } from '../../state/analysis';
import { labelKey, useLabels } from '../../state/labels';
import { usePages } from '../../state/pages';
import type { StoredLabel } from '../../db/schema';
import { csvField, download } from '../download';
import { TextCompare } from '../TextCompare';
import { fmtInt } from '../format';

/**
 * Hand labels of candidate pairs, side by side, with the keyboard: d duplicate, n not, u unsure,
 * z undo, ←/→ move. Labels are stored per dataset with their sampling strategy and inclusion probability.
 */
export function LabelView() {
  const analysis = useAnalysis((s) => s.analysis);
  const t = useAnalysis((s) => s.thresholds);
  const L = useLabels();
  const pages = usePages((p) => p.pages);
  const datasetId = usePages((p) => p.datasetId);
  const bySeq = useMemo(() => new Map(pages.map((p) => [p.seq, p])), [pages]);
  const file = useRef<HTMLInputElement>(null);
  const item = L.queue[L.position];
  const k = item?.pair;
  const seqA = analysis && k !== undefined ? analysis.seqs[analysis.pairs.a[k]] : undefined;
  const seqB = analysis && k !== undefined ? analysis.seqs[analysis.pairs.b[k]] : undefined;
  const existing = seqA !== undefined && seqB !== undefined ? L.labels.get(labelKey(seqA, seqB)) : undefined;

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      const target = e.target as HTMLElement | null;
      if (
        !analysis ||
        e.ctrlKey ||
        e.metaKey ||
        e.altKey ||
        (target && /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName))
      )
        return;
      const map: Record<string, LabelValue> = { d: 'dup', n: 'not', u: 'unsure' };
      if (map[e.key]) {
        e.preventDefault();
        void L.label(analysis, map[e.key]);
      } else if (e.key === 'z') void L.undo();
      else if (e.key === 'ArrowRight') L.move(1);
      else if (e.key === 'ArrowLeft') L.move(-1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [analysis, L]);

  if (!analysis || datasetId === null) return null;
  const counts = { dup: 0, not: 0, unsure: 0 };
  for (const l of L.labels.values()) counts[l.label]++;
  const rows = [...L.labels.values()];
  const exportJson = () =>
    download(
      'labels.json',
      'application/json',
      JSON.stringify(
        rows.map((r) => ({ ...r, url_a: bySeq.get(r.a)?.url ?? '', url_b: bySeq.get(r.b)?.url ?? '' })),
        null,
        2,
      ),
    );
  const exportCsv = () =>
    download(
      'labels.csv',
      'text/csv',
      [
        'a,b,url_a,url_b,label,strategy,pi,at',
        ...rows.map((r) =>
          [
            r.a,
            r.b,
            csvField(bySeq.get(r.a)?.url ?? ''),
            csvField(bySeq.get(r.b)?.url ?? ''),
            r.label,
            r.strategy,
            r.pi,
            r.at,
          ].join(','),
        ),
      ].join('\n') + '\n',
    );
  const importFile = async (f: File) => {
    const text = await f.text();
    let parsed: StoredLabel[];
    if (f.name.endsWith('.json')) parsed = JSON.parse(text) as StoredLabel[];
    else {
      const [head, ...lines] = text.trim().split('\n');
      const cols = head.split(',');
      parsed = lines.map((l) => {
        const v = l.split(',');
        const get = (c: string) => v[cols.indexOf(c)];
        return {
          datasetId,
          a: Number(get('a')),
          b: Number(get('b')),
          label: get('label') as LabelValue,
          strategy: (get('strategy') as Strategy) || 'random',
          pi: Number(get('pi')),
          at: get('at') ?? '',
        };
      });
    }
    await L.importLabels(parsed);
  };
  return (
    <section className="label-view" aria-label="Label pairs">
      <div className="pane-head">
        <h2>Label pairs</h2>
        <select
          aria-label="Sampling strategy"
          value={L.strategy}
          onChange={(e) => L.start(analysis, e.target.value as Strategy, t.jaccard)}
        >
          <option value="stratified">stratified by similarity (unbiased estimates)</option>
          <option value="near-threshold">near the threshold (most informative)</option>
          <option value="random">random</option>
        </select>
        <button type="button" onClick={() => L.start(analysis, L.strategy, t.jaccard)}>
          New queue
        </button>
        <span className="meta" data-testid="label-progress">
          {L.queue.length
            ? `${Math.min(L.position + 1, L.queue.length)} of ${L.queue.length} in queue · `
            : ''}
          {fmtInt(L.labels.size)} labels ({counts.dup} duplicate, {counts.not} not, {counts.unsure} unsure)
        </span>
      </div>
      {!item ? (
        <p className="empty">
          {L.queue.length
            ? 'Queue done. Start a new one.'
            : 'Start a queue to label candidate pairs: keys d duplicate, n not, u unsure, z undo, ←/→ move.'}
        </p>
      ) : (
        <>
          <p className="meta pair-measures">
            <b>{bySeq.get(seqA!)?.url}</b> ↔ <b>{bySeq.get(seqB!)?.url}</b> · Jaccard{' '}
            {analysis.pairs.jaccard[k!].toFixed(3)} · cosine {analysis.pairs.cosine[k!].toFixed(3)} · ‖ΔR‖∞{' '}
            {analysis.pairs.dR[k!].toFixed(3)} · ‖ΔX‖∞ {analysis.pairs.dX[k!].toFixed(3)} · {item.strategy}
            {Number.isFinite(item.pi) ? `, π = ${item.pi.toPrecision(2)}` : ''}
            {existing ? ` · labelled: ${existing.label}` : ''}
          </p>
          <div className="label-keys">
            <button type="button" onClick={() => void L.label(analysis, 'dup')}>
              <kbd>d</kbd> duplicate
            </button>
            <button type="button" onClick={() => void L.label(analysis, 'not')}>
              <kbd>n</kbd> not
            </button>
            <button type="button" onClick={() => void L.label(analysis, 'unsure')}>
              <kbd>u</kbd> unsure
            </button>
            <button type="button" onClick={() => void L.undo()}>
              <kbd>z</kbd> undo
            </button>
            <button type="button" onClick={() => L.move(-1)}>
              ←
            </button>
            <button type="button" onClick={() => L.move(1)}>
              →
            </button>
          </div>
          <div className="side-by-side">
            <TextCompare datasetId={datasetId} seqA={seqA!} seqB={seqB!} />
          </div>
        </>
      )}
      <p className="meta">
        <button type="button" onClick={exportJson}>
          Export labels (JSON)
        </button>{' '}
        <button type="button" onClick={exportCsv}>
          Export labels (CSV)
        </button>{' '}
        <button type="button" onClick={() => file.current?.click()}>
          Import labels…
        </button>
        <input
          ref={file}
          type="file"
          accept=".json,.csv"
          hidden
          onChange={(e) => e.target.files?.[0] && void importFile(e.target.files[0])}
        />
      </p>
    </section>
  );
}

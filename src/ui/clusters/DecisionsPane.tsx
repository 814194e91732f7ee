import { useMemo, useState, type KeyboardEvent } from 'react';
import {
  placeOverrides,
  urlOverrides,
  overridesFault,
  type UrlOverrides,
} from '../../core/clusters/override-urls';
import { pairShown } from '../../core/url/distinguish';
import { useAnalysis } from '../../state/analysis';
import { shownClusters } from '../../state/clusters';
import { useLabels } from '../../state/labels';
import { REVIEWER_MAX, useLinks, useOverrides } from '../../state/overrides';
import { usePages } from '../../state/pages';
import { download } from '../download';
import { exportFileName } from '../exports';
import { FileButton } from '../FileButton';
import { fmtInt, fmtWhen, plural } from '../format';
import { Url } from '../Url';

const HOW: Record<string, string> = {
  pair: 'marked on a pair',
  split: 'split at a weak link',
  merge: 'clusters merged',
  label: 'from a “not” label',
  import: 'imported',
};

/**
 * The analyst's decisions over the shown dataset's clusters, newest first: what, on which two URLs,
 * how, when and by whom (the reviewer's name typed here, kept in this browser); each can be taken back, the last undone (z, or the button); exported as the profile's
 * `overrides` (URLs) and imported from such a file or a profile; "not a duplicate" labels made
 * cannot-links on request. The clusters follow every change at once.
 */
export function DecisionsPane() {
  const rows = useOverrides((s) => s.rows);
  const decide = useOverrides((s) => s.decide);
  const remove = useOverrides((s) => s.remove);
  const undo = useOverrides((s) => s.undo);
  const canUndo = useOverrides((s) => s.history.length > 0);
  const reviewer = useOverrides((s) => s.reviewer);
  const setReviewer = useOverrides((s) => s.setReviewer);
  const labels = useLabels((s) => s.labels);
  const pages = usePages((s) => s.pages);
  const analysis = useAnalysis((s) => s.analysis);
  const method = useAnalysis((s) => s.method);
  const thresholds = useAnalysis((s) => s.thresholds);
  const mode = useAnalysis((s) => s.mode);
  const links = useLinks(analysis);
  const [notice, setNotice] = useState<string | null>(null);
  const list = useMemo(
    () => [...rows.values()].sort((x, y) => (x.at < y.at ? 1 : x.at > y.at ? -1 : 0)),
    [rows],
  );
  const view = useMemo(
    () => (analysis && links ? shownClusters(analysis, method, thresholds, mode, links) : null),
    [analysis, method, thresholds, mode, links],
  );
  const nots = useMemo(
    () =>
      [...labels.values()].filter((l) => l.label === 'not' && rows.get(`${l.a}:${l.b}`)?.kind !== 'cannot'),
    [labels, rows],
  );
  const urlOfSeq = useMemo(() => {
    const m = new Map(pages.map((p) => [p.seq, p.url]));
    return (s: number) => m.get(s) ?? '';
  }, [pages]);
  if (!analysis) return null;
  const onKeyDown = (e: KeyboardEvent) => {
    if (e.key === 'z' && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      e.stopPropagation();
      void undo();
    }
  };
  const exportJson = () =>
    download(
      exportFileName([], 'decisions', 'json'),
      'application/json',
      JSON.stringify(
        {
          overrides: urlOverrides(list),
          decisions: list.map(({ kind, urlA, urlB, how, at, by }) => ({ kind, urlA, urlB, how, at, by })),
        },
        null,
        2,
      ) + '\n',
    );
  const importJson = async (f: File) => {
    let o: UrlOverrides;
    // Who made each decision, when the file is a decisions export (a profile names no one).
    const byPair = new Map<string, string>();
    try {
      const raw = JSON.parse(await f.text()) as { overrides?: unknown; decisions?: unknown };
      const fault = overridesFault(raw.overrides);
      if (fault) return setNotice(`${f.name}: overrides: ${fault}`);
      const given = raw.overrides as Partial<UrlOverrides>;
      o = { mustLink: given.mustLink ?? [], cannotLink: given.cannotLink ?? [] };
      if (Array.isArray(raw.decisions))
        for (const d of raw.decisions as { urlA?: unknown; urlB?: unknown; by?: unknown }[])
          if (d && typeof d.urlA === 'string' && typeof d.urlB === 'string' && typeof d.by === 'string')
            byPair.set(`${d.urlA}\u0000${d.urlB}`, d.by.slice(0, REVIEWER_MAX));
    } catch (e) {
      return setNotice(`${f.name}: not JSON (${(e as Error).message})`);
    }
    const urls = pages.map((p) => p.normUrl);
    const placed = placeOverrides(o, urls);
    const at = (i: number) => pages[i];
    const make =
      (kind: 'must' | 'cannot') =>
      ([x, y]: readonly [number, number]) => ({
        a: at(x).seq,
        b: at(y).seq,
        kind,
        urlA: at(x).url,
        urlB: at(y).url,
        how: 'import' as const,
        by: byPair.get(`${at(x).url}\u0000${at(y).url}`) ?? byPair.get(`${at(y).url}\u0000${at(x).url}`),
      });
    const fresh = [...placed.links.must.map(make('must')), ...placed.links.cannot.map(make('cannot'))].filter(
      (r) => rows.get(`${Math.min(r.a, r.b)}:${Math.max(r.a, r.b)}`)?.kind !== r.kind,
    );
    await decide(fresh);
    const read = o.mustLink.length + o.cannotLink.length;
    setNotice(
      `${f.name}: ${plural(read, 'decision')} read, ${fmtInt(fresh.length)} new or changed${
        placed.unplaced ? `; ${fmtInt(placed.unplaced)} name pages not in this dataset` : ''
      }.`,
    );
  };
  return (
    <section className="pane decisions-pane" aria-label="Decisions">
      <div className="pane-head">
        <h2>Decisions</h2>
        <span className="meta" data-testid="decisions-count">
          {rows.size === 0
            ? 'none yet'
            : `${plural(rows.size, 'decision')} · ${plural(view?.links?.changed ?? 0, 'cluster')} changed by them`}
        </span>
      </div>
      <p className="meta">
        Mark a pair of an open cluster <em>not duplicates</em> or <em>the same page</em>, split a cluster at
        its weakest link or merge two: every clustering honours them (a cannot-link is never crossed, not even
        through a chain), the exported profile carries them by URL to the batch and to other crawls.
      </p>
      <label className="meta reviewer">
        Reviewer{' '}
        <input
          type="text"
          value={reviewer}
          maxLength={REVIEWER_MAX}
          size={36}
          placeholder="your name, recorded with each decision"
          onChange={(e) => setReviewer(e.target.value)}
        />
      </label>
      {(view?.links?.conflicts.length ?? 0) > 0 && (
        <p className="dataset-error" role="alert" data-testid="decisions-conflicts">
          {plural(view!.links!.conflicts.length, 'same-page decision')} not applied: a “not duplicates”
          decision runs between {view!.links!.conflicts.length === 1 ? 'its' : 'their'} pages’ groups, and
          wins.
        </p>
      )}
      {list.length > 0 && (
        <ul tabIndex={0} aria-label="Decisions made" onKeyDown={onKeyDown} data-testid="decisions-list">
          {list.map((r) => {
            const [sa, sb] = pairShown(r.urlA, r.urlB);
            return (
              <li key={`${r.a}:${r.b}`}>
                <span className={`decision-kind ${r.kind}`}>
                  {r.kind === 'cannot' ? 'not duplicates' : 'the same page'}
                </span>
                <Url url={r.urlA} shown={sa} expandable />
                <Url url={r.urlB} shown={sb} expandable />
                <button type="button" className="link" onClick={() => void remove([[r.a, r.b]])}>
                  take back
                </button>
                <span className="meta">
                  {HOW[r.how] ?? r.how}
                  {r.by ? ` by ${r.by}` : ''} · {fmtWhen(r.at)}
                </span>
              </li>
            );
          })}
        </ul>
      )}
      <p className="meta decisions-actions">
        <button type="button" disabled={!canUndo} onClick={() => void undo()}>
          <kbd>z</kbd> undo
        </button>{' '}
        <button type="button" disabled={list.length === 0} onClick={exportJson}>
          Export decisions (JSON)
        </button>{' '}
        <FileButton
          accept=".json,application/json"
          testId="decisions-file"
          onFiles={(files) => void importJson(files[0])}
        >
          Import decisions…
        </FileButton>{' '}
        {nots.length > 0 && (
          <button
            type="button"
            onClick={() =>
              void decide(
                nots.map((l) => ({
                  a: l.a,
                  b: l.b,
                  kind: 'cannot',
                  urlA: urlOfSeq(l.a),
                  urlB: urlOfSeq(l.b),
                  how: 'label',
                })),
              )
            }
          >
            Make the {plural(nots.length, '“not a duplicate” label')} cannot-links
          </button>
        )}
      </p>
      {notice && (
        <p className="meta" role="status" data-testid="decisions-notice">
          {notice}
        </p>
      )}
    </section>
  );
}

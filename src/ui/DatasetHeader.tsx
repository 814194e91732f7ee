import { useState } from 'react';
import { HOST_GUESSED } from '../core/ingest/access-log';
import { describeDigests } from '../core/ingest/digest-report';
import type { DigestReport, SourceInfo } from '../core/types';
import type { Dataset } from '../db/schema';
import { useDatasets } from '../state/datasets';
import { useDust } from '../state/dust';
import { usePages } from '../state/pages';
import { escapeBidi, fmtBytes, fmtDuration, fmtInt, kindOf, plural } from './format';
import { Url } from './Url';

/** The selected dataset's name (renamable), what was read, how much it stores, and what went wrong. */
export function DatasetHeader({ dataset: d }: { dataset: Dataset }) {
  const types = Object.entries(d.recordsByType)
    .map(([k, v]) => `${k} ${fmtInt(v)}`)
    .join(' · ');
  const statuses = Object.entries(d.statusCounts ?? {})
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([k, v]) => `${k} ${fmtInt(v)}`)
    .join(' · ');
  // What was read but is not a page: dns: lookups, Heritrix's own codes with their meaning, …
  const notPages = Object.entries(d.skipped ?? {})
    .sort((a, b) => b[1] - a[1])
    .map(([k, v]) => `${k.replace(/ \(not pages\)$/, '')} ${fmtInt(v)}`)
    .join(' · ');
  const ingesting = d.status === 'ingesting';
  return (
    <header className="dataset-header">
      <DatasetName dataset={d} />
      <p className="meta">
        {kindOf(d, true)} · {fmtBytes(d.bytes)}
        {d.bytesDecoded > d.bytes ? ` (${fmtBytes(d.bytesDecoded)} uncompressed)` : ''} ·{' '}
        {/* While it is read, the row counts the pages stored so far (hosts and time come at the end). */}
        {ingesting
          ? `${plural(d.pages, 'page')} stored so far`
          : `${plural(d.pages, 'page')} · ${plural(d.hosts, 'host')}`}
        {d.elapsedMs > 0 ? ` · read in ${fmtDuration(d.elapsedMs)}` : ''}
        {d.storedBytes ? ` · ≈ ${fmtBytes(d.storedBytes)} to store (before compression)` : ''} ·{' '}
        <span className={`badge status-${d.status}`}>{d.status}</span>
      </p>
      {d.fileName !== d.name && <p className="meta">File: {d.fileName}</p>}
      {d.sample && (
        <p className="meta" data-testid="sample-of">
          Sample of a larger crawl: {fmtInt(d.pages)} of the index’s {fmtInt(d.sample.population.pages)} HTML
          pages, from{' '}
          <abbr title="A site group: a site (its host, with its port) and the sites the index shows to mirror it; a site too big for the budget is cut into directory pieces. The sample draws whole groups, so near copies within a group are seen (docs/large-crawls.md).">
            {d.sample.chosen.length} of {fmtInt(d.sample.population.units)} site groups
          </abbr>{' '}
          (random seed {d.sample.seed}); {fmtBytes(d.sample.bytesRead)} of{' '}
          {fmtBytes(d.sample.population.bytes)} read by byte ranges, located by{' '}
          {/^an index built/.test(d.sample.index) ? '' : 'the index '}
          {escapeBidi(d.sample.index)}
          {d.sample.badLines > 0 ? ` · ${plural(d.sample.badLines, 'index line')} not read` : ''}
          {d.sample.missingFiles.length > 0
            ? ` · records in ${plural(d.sample.missingFiles.length, 'file')} not chosen: ${d.sample.missingFiles.slice(0, 3).map(escapeBidi).join(', ')}`
            : ''}
        </p>
      )}
      {types && <p className="meta">Records: {types}</p>}
      {statuses && <p className="meta">Status: {statuses}</p>}
      {notPages && <p className="meta">Not pages: {notPages}</p>}
      {d.pageList && (
        <p className="meta">
          Page list (pages.jsonl): {fmtInt(d.pageList.listed)} listed, {fmtInt(d.pageList.found)} read as
          pages
        </p>
      )}
      {d.digests && <Digests report={d.digests} fileName={d.fileName} />}
      {d.format === 'access-log' && !ingesting && <LogHost dataset={d} />}
      {d.sources && (d.sources.length > 1 || d.sources.some((x) => x.format === null)) && (
        <Sources sources={d.sources} />
      )}
      {d.error && (
        <p className={d.status === 'empty' ? 'dataset-error empty' : 'dataset-error'} role="alert">
          {d.error.message}
        </p>
      )}
      {d.warningCount > 0 && (
        <details className="dataset-warnings">
          <summary>
            {d.warningCount} problem{d.warningCount > 1 ? 's' : ''} read past
          </summary>
          <ul>
            {/* Messages quote crawled URLs and bytes: their bidirectional controls are shown, not applied. */}
            {d.warnings.map((w, i) => (
              <li key={i}>{escapeBidi(w.message)}</li>
            ))}
          </ul>
        </details>
      )}
    </header>
  );
}

/**
 * The digests the records state, checked against their bytes (core/ingest/digests.ts): the counts, and
 * each mismatch with its offset and URL. A mismatch is noted, never a rejection: the pages are kept.
 */
function Digests({ report: r, fileName }: { report: DigestReport; fileName: string }) {
  const bad = r.payloadMismatches + r.blockMismatches;
  if (bad === 0)
    return (
      <p className="meta" data-testid="digests">
        Digests: {describeDigests(r)}
      </p>
    );
  return (
    <details className="dataset-warnings" data-testid="digests">
      <summary>Digests: {describeDigests(r)}</summary>
      <ul>
        {r.mismatches.map((m, i) => (
          <li key={i}>
            {m.field === 'payload' ? 'WARC-Payload-Digest' : 'WARC-Block-Digest'} at byte {fmtInt(m.offset)}
            {m.fileName !== fileName ? ` of ${escapeBidi(m.fileName)}` : ''} ·{' '}
            {m.url ? <Url url={m.url} /> : `${m.recordType} record`} · {escapeBidi(m.stated)} stated,{' '}
            {m.computed} computed
          </li>
        ))}
        {bad > r.mismatches.length && <li>… and {fmtInt(bad - r.mismatches.length)} more</li>}
      </ul>
    </details>
  );
}

/**
 * Where an access log's URLs got their host: the log's virtual-host field, a guess from the referers
 * (said, since every rule and URL names it), or the base URL the analyst set, which can be set here as
 * the CLI's --base does; the pages are rebuilt and the DUST rules mined again.
 */
function LogHost({ dataset: d }: { dataset: Dataset }) {
  const rebaseLog = useDatasets((s) => s.rebaseLog);
  const guess = d.warnings.find((w) => w.kind === HOST_GUESSED);
  const [value, setValue] = useState(d.baseUrl ?? '');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!guess && !d.baseUrl) {
    return (
      <p className="meta" data-testid="log-host">
        Hosts from the log's virtual-host field: {plural(d.hosts, 'host')}
      </p>
    );
  }
  const apply = async () => {
    setBusy(true);
    const err = await rebaseLog(d.id!, value);
    setError(err);
    if (!err) {
      await usePages.getState().load(d.id!);
      await useDust.getState().load(d.id!);
      void useDust.getState().mine();
    }
    setBusy(false);
  };
  return (
    <form
      className="log-host"
      data-testid="log-host"
      onSubmit={(e) => {
        e.preventDefault();
        void apply();
      }}
    >
      <p className={d.baseUrl ? 'meta' : 'meta log-host-guessed'} role="status">
        {d.baseUrl
          ? `Host of the logged paths: ${d.baseUrl} (base URL set by you)`
          : `Host guessed — ${guess!.reason}`}
      </p>
      <label>
        Base URL{' '}
        <input
          type="text"
          inputMode="url"
          placeholder="https://www.example.org"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          aria-describedby={error ? 'log-host-error' : undefined}
        />
      </label>{' '}
      <button type="submit" disabled={busy || value.trim() === ''}>
        {busy ? 'Applying…' : 'Apply and mine again'}
      </button>
      {error && (
        <span id="log-host-error" className="dataset-error" role="alert">
          {' '}
          {error}
        </span>
      )}
    </form>
  );
}

/** The files of a crawl read from many: each with its pages and its own problems, skipped ones said so. */
function Sources({ sources }: { sources: SourceInfo[] }) {
  const skipped = sources.filter((x) => x.format === null).length;
  return (
    <details className="dataset-sources">
      <summary>
        {plural(sources.length, 'file')}
        {skipped > 0 ? ` (${fmtInt(skipped)} skipped: not readable as a crawl)` : ''}
      </summary>
      <ul>
        {sources.map((x, i) => (
          <li key={i}>
            <span className="name">{x.name}</span> ·{' '}
            {x.format === null
              ? 'skipped'
              : `${x.format}${x.compressed ? ` (${x.compression ?? 'gzip'})` : ''} · ${plural(x.pages, 'page')}`}{' '}
            · {fmtBytes(x.bytes)}
            {x.error && <div className="dataset-error">{x.error.message}</div>}
            {x.warningCount > 0 && (
              <ul>
                {x.warnings.map((w, k) => (
                  <li key={k}>{w.message}</li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </details>
  );
}

/** The name as a heading, with Rename: Enter saves, Escape leaves it as it was. */
function DatasetName({ dataset: d }: { dataset: Dataset }) {
  const rename = useDatasets((s) => s.rename);
  const [draft, setDraft] = useState<string | null>(null);
  if (draft === null)
    return (
      <div className="dataset-name">
        <h1>{d.name}</h1>
        <button
          type="button"
          className="link"
          onClick={() => setDraft(d.name)}
          aria-label={`Rename ${d.name}`}
        >
          Rename
        </button>
      </div>
    );
  const save = () => {
    const name = draft.trim();
    setDraft(null);
    if (name && name !== d.name) void rename(d.id!, name);
  };
  return (
    <form
      className="dataset-name"
      onSubmit={(e) => {
        e.preventDefault();
        save();
      }}
    >
      <input
        aria-label="Dataset name"
        value={draft}
        maxLength={200}
        autoFocus
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setDraft(null);
        }}
      />
      <button type="submit" disabled={!draft.trim()}>
        Save
      </button>
      <button type="button" onClick={() => setDraft(null)}>
        Cancel
      </button>
    </form>
  );
}

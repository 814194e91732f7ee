/** A page's text as the page detail shows it: a step at a time, template lines dimmed. */
import { useState, type ReactNode } from 'react';
import { fmtInt, plural } from './format';

/** Characters of a page's text shown at first, and added by each "Show more". */
export const TEXT_STEP = 20_000;
/** "Show all" above this many characters says it may slow the tab (a text node of megabytes lays out slowly). */
const TEXT_WARN = 500_000;

/**
 * The page's text, the first TEXT_STEP characters at first: a page can hold megabytes of text (the ingest
 * keeps up to 8 MiB), and one text node that long takes seconds to lay out. "Show more" adds a step;
 * "Show all" says how much it is. A text node, never markup.
 */
export function PageText({
  text,
  templateSpans,
}: {
  text: string;
  templateSpans: [number, number][] | null;
}) {
  const [shown, setShown] = useState(TEXT_STEP);
  const capped = text.length > shown;
  const rest = text.length - shown;
  const end = capped ? shown : text.length;
  const templateChars = templateSpans?.reduce((n, [a, b]) => n + b - a, 0) ?? 0;
  return (
    <>
      <h3 data-testid="text-heading">
        Text ({plural(text.length, 'character')}
        {capped ? `, first ${fmtInt(shown)} shown` : ''})
      </h3>
      {templateChars > 0 && (
        <p className="meta" data-testid="template-legend">
          <span className="template-text">Dimmed</span>: template text ({plural(templateChars, 'character')}{' '}
          in {plural(templateSpans!.length, 'run')}) — lines its site repeats on many pages, left out of the
          signatures when “Template text” is strip.
        </p>
      )}
      <pre className="page-text" data-testid="page-text">
        {text ? <TemplateRuns text={text} spans={templateSpans ?? []} end={end} /> : '(no text)'}
      </pre>
      {capped && (
        <div className="more">
          <button type="button" onClick={() => setShown((n) => n + TEXT_STEP)}>
            Show more (next {plural(Math.min(TEXT_STEP, rest), 'character')})
          </button>
          <button
            type="button"
            className={text.length > TEXT_WARN ? 'warn' : undefined}
            onClick={() => setShown(text.length)}
          >
            Show all {plural(text.length, 'character')}
            {text.length > TEXT_WARN ? ' (large: the tab may be slow while it lays this out)' : ''}
          </button>
        </div>
      )}
    </>
  );
}

/** Text up to `end` with the template spans dimmed: text nodes only, never markup. */
function TemplateRuns({ text, spans, end }: { text: string; spans: [number, number][]; end: number }) {
  const out: ReactNode[] = [];
  let at = 0;
  for (const [a, b] of spans) {
    if (a >= end) break;
    if (a > at) out.push(text.slice(at, a));
    out.push(
      <span key={a} className="template-text">
        {text.slice(a, Math.min(b, end))}
      </span>,
    );
    at = Math.min(b, end);
  }
  if (at < end) out.push(text.slice(at, end));
  return <>{out}</>;
}

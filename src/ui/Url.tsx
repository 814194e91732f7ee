import { useState } from 'react';
import { escapeBidi, middleEllipsis } from './format';

/**
 * A URL shown whole enough to tell DUST apart: the host and the end of the path and query are kept, the
 * middle gives way to an ellipsis when it is longer than `max` characters; or, listed beside others,
 * `shown`: what tells it from them (core/url/distinguish.ts). The full URL on hover (and for screen
 * readers); `expandable`: a click or Enter shows it whole in place. Text only: crawled URLs are never
 * markup, and their bidirectional controls are shown, not applied (escapeBidi), so the URL reads in the
 * order it was stored.
 */
export function Url({
  url,
  max = 64,
  className,
  shown,
  expandable = false,
}: {
  url: string | undefined;
  max?: number;
  className?: string;
  shown?: string;
  expandable?: boolean;
}) {
  const [open, setOpen] = useState(false);
  if (url === undefined) return <span className={className ? `url ${className}` : 'url'}>–</span>;
  const whole = escapeBidi(url);
  const short = shown !== undefined ? escapeBidi(shown) : middleEllipsis(whole, max);
  const text = open ? whole : short;
  const cls = className ? `url ${className}` : 'url';
  if (!expandable || short === whole)
    return (
      <span className={cls} title={whole} aria-label={text === whole ? undefined : whole}>
        {text}
      </span>
    );
  return (
    <span
      className={`${cls} expandable`}
      title={whole}
      role="button"
      tabIndex={0}
      aria-expanded={open}
      aria-label={open ? undefined : whole}
      onClick={() => setOpen((o) => !o)}
      onKeyDown={(e) => {
        if (e.key !== 'Enter' && e.key !== ' ') return;
        e.preventDefault();
        setOpen((o) => !o);
      }}
    >
      {text}
    </span>
  );
}

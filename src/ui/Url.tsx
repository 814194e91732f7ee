import { escapeBidi, middleEllipsis } from './format';

/**
 * A URL shown whole enough to tell DUST apart: the host and the end of the path and query are kept, the
 * middle gives way to an ellipsis when it is longer than `max` characters; the full URL on hover (and for
 * screen readers). Text only: crawled URLs are never markup, and their bidirectional controls are shown,
 * not applied (escapeBidi), so the URL reads in the order it was stored.
 */
export function Url({
  url,
  max = 64,
  className,
}: {
  url: string | undefined;
  max?: number;
  className?: string;
}) {
  if (url === undefined) return <span className={className ? `url ${className}` : 'url'}>–</span>;
  const whole = escapeBidi(url);
  const shown = middleEllipsis(whole, max);
  return (
    <span
      className={className ? `url ${className}` : 'url'}
      title={whole}
      aria-label={shown === whole ? undefined : whole}
    >
      {shown}
    </span>
  );
}

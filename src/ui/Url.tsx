import { middleEllipsis } from './format';

/**
 * A URL shown whole enough to tell DUST apart: the host and the end of the path and query are kept, the
 * middle gives way to an ellipsis when it is longer than `max` characters; the full URL on hover (and for
 * screen readers). Text only: crawled URLs are never markup.
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
  const shown = middleEllipsis(url, max);
  return (
    <span
      className={className ? `url ${className}` : 'url'}
      title={url}
      aria-label={shown === url ? undefined : url}
    >
      {shown}
    </span>
  );
}

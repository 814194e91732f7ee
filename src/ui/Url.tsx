import { useState } from 'react';
import { escapeBidi, middleEllipsis } from './format';

/**
 * A URL shown whole enough to tell DUST apart: the host and the end of the path and query are kept, the
 * middle gives way to an ellipsis when it is longer than `max` characters; or, listed beside others,
 * `shown`: what tells it from them (core/url/distinguish.ts). The full URL on hover (and for screen
 * readers); `expandable`: a click or Enter shows it whole in place, with a button to copy it. Text only: crawled URLs are never
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
  const toggle = (
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
  if (!open) return toggle;
  // Read whole: and copied whole, as stored (the bidi controls escapeBidi shows are in the copy).
  return (
    <>
      {toggle} <CopyButton text={url} />
    </>
  );
}

/** Copies a URL to the clipboard, and says so for a moment. */
function CopyButton({ text }: { text: string }) {
  const [done, setDone] = useState<'copied' | 'refused' | null>(null);
  return (
    <button
      type="button"
      className="link copy-url"
      onClick={(e) => {
        e.stopPropagation();
        const clip = typeof navigator !== 'undefined' ? navigator.clipboard : undefined;
        if (!clip) return setDone('refused');
        clip.writeText(text).then(
          () => setDone('copied'),
          () => setDone('refused'),
        );
        setTimeout(() => setDone(null), 1500);
      }}
    >
      {done === 'copied' ? 'copied' : done === 'refused' ? 'copy refused: select the text' : 'copy'}
    </button>
  );
}

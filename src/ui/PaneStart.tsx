import type { ReactNode } from 'react';

/**
 * A pane before its job has run: the pane's title, then what the job would do and the button that
 * starts it (`children`) or, while it runs, its progress; the job's last error under either.
 * The clusters and DUST panes share it, so an empty pane reads the same in both.
 */
export function PaneStart({
  className,
  title,
  running = false,
  progress,
  error = null,
  children,
}: {
  /** The pane's own class (`pane-clusters`), beside `pane`. */
  className: string;
  title: string;
  running?: boolean;
  progress?: ReactNode;
  error?: string | null;
  children: ReactNode;
}) {
  return (
    <section className={`pane ${className}`} aria-label={title}>
      <h2>{title}</h2>
      {running ? progress : children}
      {error && (
        <p className="dataset-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}

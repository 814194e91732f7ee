/** The origin's storage: as the browser reports it, and the warning before a read that will likely not fit. */
import type { Notice } from './ingest-notices';

/** The origin's storage as the browser reports it (navigator.storage), null where it cannot say. */
export interface StorageInfo {
  usage: number;
  quota: number;
  /** True once the browser granted persistence (not evicted under storage pressure). */
  persisted: boolean | null;
}

/** Warn before a read that will likely not fit in what the browser lets this site store. */
export async function warnIfLarge(
  files: File[],
  label: string,
  size: number,
  notify: (n: Notice) => void,
): Promise<void> {
  const st = typeof navigator !== 'undefined' ? navigator.storage : undefined;
  if (!st?.estimate) return;
  const e = await st.estimate().catch(() => null);
  if (!e?.quota) return;
  const free = e.quota - (e.usage ?? 0);
  // Stored pages take about what the file inflates to: ~4× a .gz, ~1× a plain file (measured on docsite).
  const need = size * (files.some((f) => /\.(gz|wacz|zip)$/i.test(f.name)) ? 4 : 1);
  if (need > free)
    notify({
      kind: 'warning',
      text:
        `${label} may need about ${fmtMB(need)} of storage, and this site has ${fmtMB(free)} left: ` +
        'the read will stop when the storage is full and keep the pages read by then.',
    });
}

const fmtMB = (n: number) => `${Math.round(n / 2 ** 20).toLocaleString('en-US')} MB`;

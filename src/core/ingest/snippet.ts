import { latin1 } from './bytes';

/** A short printable excerpt for error messages. */
export function snippet(b: Uint8Array, n = 40): string {
  return latin1
    .decode(b.subarray(0, n))
    .replace(/\r/g, '\\r')
    .replace(/\n/g, '\\n')
    .replace(/[^\x20-\x7e\\]/g, '·');
}

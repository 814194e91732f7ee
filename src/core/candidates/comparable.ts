/**
 * Pages that take part in signatures: a text to compare, a successful (or unknown) status, and not a
 * revisit record (the page it revisits stands for it).
 */
export function comparable(p: { textLength: number; recordType: string; status: number }): boolean {
  return (
    p.textLength > 0 && p.recordType !== 'revisit' && (p.status === 0 || (p.status >= 200 && p.status < 300))
  );
}

/**
 * Brings the detail with DOM id `id` into view (the least scrolling that shows it): a selection in a list
 * shows its detail where the analyst looks. With `focus` (Enter on the list) the keyboard moves there too;
 * a click leaves it on the list. Call once the detail is rendered (after flushSync, or from an effect).
 */
export function revealDetail(id: string, focus: boolean): void {
  const el = document.getElementById(id);
  if (!el) return;
  if (focus) el.focus({ preventScroll: true });
  el.scrollIntoView?.({ block: 'nearest' });
}

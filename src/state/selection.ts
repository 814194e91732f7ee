/**
 * Where a list's selection goes when the list changes under it: re-sorted (a label edited in a list
 * ordered newest first, a header clicked), re-filtered, re-clustered (a slider moved). A selection is
 * the identity of an item — a label's pair key, a rule's id, a page's seq, a cluster's id — never a
 * row, so the keys an analyst presses next act on the item they chose, wherever it moved.
 *
 * When the change takes the selected item out of the list, the selection goes to the first item that
 * followed it in the list as it was and is still listed; when none is left, to none. Never to whatever
 * now sits in its old row.
 */
export interface Listing<K> {
  /** The items' identities, in list order. */
  readonly keys: readonly K[];
  /** Row of the item selection `k` is on, -1 when it is on none. */
  rowOf(k: K): number;
}

/** A list whose items are named by their own keys (pairs, rules, pages): a selection is on its key's row. */
export function keyedListing<K>(keys: readonly K[]): Listing<K> {
  let rows: Map<K, number> | null = null;
  return {
    keys,
    rowOf(k) {
      rows ??= new Map(keys.map((x, i) => [x, i]));
      return rows.get(k) ?? -1;
    },
  };
}

/**
 * The selection after the list changed from `before` to `after`. A selection that was not in `before`
 * either (a page opened from an outlink the table filters out, a rule opened from a cluster) is left as
 * it is: only a change of the list moves a selection, and only off an item the list held.
 */
export function follow<K>(before: Listing<K>, after: Listing<K>, selected: K | null): K | null {
  if (selected === null || after.rowOf(selected) >= 0) return selected;
  const at = before.rowOf(selected);
  if (at < 0) return selected;
  for (let i = at + 1; i < before.keys.length; i++) {
    if (after.rowOf(before.keys[i]) >= 0) return before.keys[i];
  }
  return null;
}

/**
 * `s` as a string of its own. V8 makes a slice (and a concatenation) of 13 characters or more a view
 * of the strings it comes from: a title, a link or a one-piece text kept with the page record kept
 * the page's whole HTML (~50 KB on docsite) alive until its batch was stored, so scavenges copied and
 * promoted every page's HTML. A concatenation is flattened by the slice after it: the result's
 * parent is the new string of length + 1.
 */
export function detached(s: string): string {
  return s.length < 13 ? s : (' ' + s).slice(1);
}

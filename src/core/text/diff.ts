/**
 * Word-level difference of two texts (Myers' O(ND) algorithm, Algorithmica 1986), for the side-by-side
 * views: runs of tokens marked same, deleted (only in a) or inserted (only in b). Tokens keep their
 * trailing white space so the runs join back into the texts; two tokens are the same word when they
 * agree without it.
 */
export type DiffOp = 'same' | 'del' | 'ins';
export interface DiffRun {
  op: DiffOp;
  /** The run as in a (for 'ins': as in b). */
  text: string;
  /** For 'same': the run as in b (white space may differ). */
  textB?: string;
}

/** One step of an edit script: a token kept (a[i] and b[j]), deleted from a, or inserted from b. */
export const SAME = 0;
export const DEL = 1;
export const INS = 2;

export function splitWords(s: string): string[] {
  return s.match(/\S+\s*|\s+/g) ?? [];
}

/** Tokens as integers (equal words, equal ids), so the snakes compare numbers, not strings. */
function intern(a: readonly string[], b: readonly string[]): [Int32Array, Int32Array] {
  const ids = new Map<string, number>();
  const map = (t: readonly string[]) => {
    const out = new Int32Array(t.length);
    for (let i = 0; i < t.length; i++) {
      const k = t[i].trimEnd();
      let id = ids.get(k);
      if (id === undefined) ids.set(k, (id = ids.size));
      out[i] = id;
    }
    return out;
  };
  return [map(a), map(b)];
}

/**
 * The shortest edit script of a and b (SAME, DEL, INS per step), or null past maxD edits — the bound
 * on time (O((N + M)·D)) and memory ((D + 1)² integers of trace) for unrelated texts. The common
 * beginning and end are taken off first: a near-duplicate's few edits cost little whatever its length.
 */
export function editScript(a: readonly string[], b: readonly string[], maxD = 4000): Uint8Array | null {
  const [x0, y0] = intern(a, b);
  let pre = 0;
  while (pre < x0.length && pre < y0.length && x0[pre] === y0[pre]) pre++;
  let suf = 0;
  while (
    suf < x0.length - pre &&
    suf < y0.length - pre &&
    x0[x0.length - 1 - suf] === y0[y0.length - 1 - suf]
  )
    suf++;
  const xs = x0.subarray(pre, x0.length - suf);
  const ys = y0.subarray(pre, y0.length - suf);
  const n = xs.length;
  const m = ys.length;
  const max = Math.min(n + m, maxD);
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  // trace[d] holds v[-d..d] before step d: only the diagonals step d can reach.
  const trace: Int32Array[] = [];
  let found = n === 0 && m === 0;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice(off - d, off + d + 1));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && xs[x] === ys[y]) {
        x++;
        y++;
      }
      v[off + k] = x;
      if (x >= n && y >= m) {
        found = true;
        break;
      }
    }
  }
  if (!found) return null;
  // Walk back through the trace, filling the script from its end.
  const d0 = trace.length - 1;
  const out = new Uint8Array(pre + n + m + suf);
  let s = out.length;
  for (let i = 0; i < suf; i++) out[--s] = SAME;
  let x = n;
  let y = m;
  for (let d = d0; d >= 0 && (x > 0 || y > 0); d--) {
    const vv = trace[d];
    const at = (k: number) => vv[k + d];
    const k = x - y;
    const prevK = k === -d || (k !== d && at(k - 1) < at(k + 1)) ? k + 1 : k - 1;
    const prevX = d === 0 ? 0 : at(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      out[--s] = SAME;
      x--;
      y--;
    }
    if (d > 0) {
      if (x === prevX) {
        out[--s] = INS;
        y--;
      } else {
        out[--s] = DEL;
        x--;
      }
    }
  }
  for (let i = 0; i < pre; i++) out[--s] = SAME;
  return out.slice(s);
}

/** Myers diff of token arrays as runs; null past maxD edits, to bound time on unrelated texts. */
export function diffTokens(a: readonly string[], b: readonly string[], maxD = 4000): DiffRun[] | null {
  const script = editScript(a, b, maxD);
  if (!script) return null;
  const runs: DiffRun[] = [];
  let i = 0;
  let j = 0;
  for (const op of script) {
    const last = runs[runs.length - 1];
    const kind: DiffOp = op === SAME ? 'same' : op === DEL ? 'del' : 'ins';
    const t = op === INS ? b[j] : a[i];
    const tb = op === SAME ? b[j] : undefined;
    if (op !== INS) i++;
    if (op !== DEL) j++;
    if (last && last.op === kind) {
      last.text += t;
      if (tb !== undefined) last.textB += tb;
    } else runs.push(tb !== undefined ? { op: kind, text: t, textB: tb } : { op: kind, text: t });
  }
  return runs;
}

export function diffWords(a: string, b: string, maxD?: number): DiffRun[] | null {
  return diffTokens(splitWords(a), splitWords(b), maxD);
}

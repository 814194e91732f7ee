/**
 * Word-level difference of two texts (Myers' O(ND) algorithm), for the side-by-side views: runs of
 * tokens marked same, deleted (only in a) or inserted (only in b). Tokens keep their trailing white
 * space so the runs join back into the texts.
 */
export type DiffOp = 'same' | 'del' | 'ins';
export interface DiffRun {
  op: DiffOp;
  /** The run as in a (for 'ins': as in b). */
  text: string;
  /** For 'same': the run as in b (white space may differ). */
  textB?: string;
}

export function splitWords(s: string): string[] {
  return s.match(/\S+\s*|\s+/g) ?? [];
}

/** Myers diff of token arrays; gives up (returns null) past maxD edits, to bound time on unrelated texts. */
export function diffTokens(a: readonly string[], b: readonly string[], maxD = 4000): DiffRun[] | null {
  const n = a.length;
  const m = b.length;
  const max = Math.min(n + m, maxD);
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  const key = (t: string) => t.trimEnd();
  let found = false;
  for (let d = 0; d <= max && !found; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && key(a[x]) === key(b[y])) {
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
  // Walk back through the trace.
  const ops: { op: DiffOp; t: string; tb?: string }[] = [];
  let x = n;
  let y = m;
  for (let d = trace.length - 1; d >= 0 && (x > 0 || y > 0); d--) {
    const vv = trace[d];
    const k = x - y;
    const prevK = k === -d || (k !== d && vv[off + k - 1] < vv[off + k + 1]) ? k + 1 : k - 1;
    const prevX = vv[off + prevK];
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) ops.push({ op: 'same', t: a[--x], tb: b[--y] });
    if (d > 0) {
      if (x === prevX) ops.push({ op: 'ins', t: b[--y] });
      else ops.push({ op: 'del', t: a[--x] });
    }
  }
  ops.reverse();
  const runs: DiffRun[] = [];
  for (const o of ops) {
    const last = runs[runs.length - 1];
    if (last && last.op === o.op) {
      last.text += o.t;
      if (o.tb !== undefined) last.textB += o.tb;
    } else runs.push(o.tb !== undefined ? { op: o.op, text: o.t, textB: o.tb } : { op: o.op, text: o.t });
  }
  return runs;
}

export function diffWords(a: string, b: string, maxD?: number): DiffRun[] | null {
  return diffTokens(splitWords(a), splitWords(b), maxD);
}

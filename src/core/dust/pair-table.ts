/**
 * Counters per unordered pair of integer ids (Fig. 1's instance table IT, "grouped into rule
 * supports by (substring1, substring2)", lines 16–17): an open-addressing table on typed arrays, so
 * millions of instances cost no objects. Also memoises per-URL-pair answers.
 */
import { combine32, mix32 } from '../hash';

export class PairTable {
  /** Counters of the pair in slot s: values[s · width … s · width + width). */
  values: Uint32Array;
  readonly width: number;
  /** Key halves per slot; keyA is a + 1 so that 0 marks an empty slot. */
  private keyA: Uint32Array;
  private keyB: Uint32Array;
  private mask: number;
  size = 0;

  constructor(width: number, capacity = 1 << 12) {
    let cap = 16;
    while (cap < 2 * capacity) cap *= 2;
    this.width = width;
    this.keyA = new Uint32Array(cap);
    this.keyB = new Uint32Array(cap);
    this.values = new Uint32Array(cap * width);
    this.mask = cap - 1;
  }

  /** Slot of the pair {a, b} (order does not matter), inserted with zero counters when new. */
  slot(a: number, b: number): number {
    if (a > b) [a, b] = [b, a];
    let s = mix32(combine32(a, b)) & this.mask;
    for (;;) {
      const k = this.keyA[s];
      if (k === 0) break;
      if (k === a + 1 && this.keyB[s] === b) return s;
      s = (s + 1) & this.mask;
    }
    this.keyA[s] = a + 1;
    this.keyB[s] = b;
    this.size++;
    if (2 * this.size > this.keyA.length) {
      this.rehash();
      return this.find(a, b);
    }
    return s;
  }

  /** Slot of the pair, or -1 when absent. */
  find(a: number, b: number): number {
    if (a > b) [a, b] = [b, a];
    let s = mix32(combine32(a, b)) & this.mask;
    for (;;) {
      const k = this.keyA[s];
      if (k === 0) return -1;
      if (k === a + 1 && this.keyB[s] === b) return s;
      s = (s + 1) & this.mask;
    }
  }

  /** Calls visit(a, b, slot) for every pair stored, a < b. */
  forEach(visit: (a: number, b: number, slot: number) => void): void {
    for (let s = 0; s < this.keyA.length; s++)
      if (this.keyA[s] !== 0) visit(this.keyA[s] - 1, this.keyB[s], s);
  }

  private rehash(): void {
    const { keyA, keyB, values, width } = this;
    const cap = keyA.length * 2;
    this.keyA = new Uint32Array(cap);
    this.keyB = new Uint32Array(cap);
    this.values = new Uint32Array(cap * width);
    this.mask = cap - 1;
    for (let s = 0; s < keyA.length; s++) {
      if (keyA[s] === 0) continue;
      let t = mix32(combine32(keyA[s] - 1, keyB[s])) & this.mask;
      while (this.keyA[t] !== 0) t = (t + 1) & this.mask;
      this.keyA[t] = keyA[s];
      this.keyB[t] = keyB[s];
      for (let w = 0; w < width; w++) this.values[t * width + w] = values[s * width + w];
    }
  }
}

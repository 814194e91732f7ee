/**
 * The hash tables SortedRows measures with (csr.ts): a row held as a set to probe other rows against,
 * and the distinct ids of all rows numbered by rank. Typed arrays, reused, no per-entry objects.
 */

/**
 * One row held in an open-addressing hash set (linear probing, load ≤ ½), so the many candidate pairs
 * that share their first page each cost one probe per id of the second row, not a merge of both rows.
 * Reused from row to row: a slot is occupied when its stamp is the current row's, so nothing is cleared.
 */
export class RowSet {
  keys = new Int32Array(0);
  stamps = new Uint32Array(0);
  stamp = 0;
  mask = 0;
  shift = 32;
  /**
   * A filter in front of the set: bit (id >>> 16) of 2¹⁶ (8 KiB, in the first-level cache) is on for
   * each id held. A row of ~1,500 ids sets ~2% of the bits, so an id of a dissimilar row is turned away
   * by one bit test, a branch the processor predicts; the set is probed only past it.
   */
  bits = new Int32Array(1 << 11);
  private from = 0;
  private to = 0;
  private ids: Int32Array = new Int32Array(0);

  /** Holds ids[from, to) (distinct). */
  load(ids: Int32Array, from: number, to: number): void {
    let cap = 16;
    let log2 = 4;
    while (cap < 2 * (to - from)) {
      cap *= 2;
      log2++;
    }
    if (this.keys.length < cap) {
      this.keys = new Int32Array(cap);
      this.stamps = new Uint32Array(cap);
      this.stamp = 0;
    }
    if (++this.stamp === 0xffffffff) {
      this.stamps.fill(0);
      this.stamp = 1;
    }
    this.mask = cap - 1;
    this.shift = 32 - log2;
    const { keys, stamps, stamp, mask, shift, bits } = this;
    // The last row's bits off (its ids are still where they were).
    for (let i = this.from; i < this.to; i++) bits[this.ids[i] >>> 21] = 0;
    this.ids = ids;
    this.from = from;
    this.to = to;
    for (let i = from; i < to; i++) {
      const x = ids[i];
      bits[x >>> 21] |= 1 << ((x >>> 16) & 31);
      // Fibonacci hashing (the multiply's high bits): the ids are hashes already, but a crafted page
      // could line their low bits up.
      let s = Math.imul(x, 0x9e3779b1) >>> shift;
      while (stamps[s] === stamp) s = (s + 1) & mask;
      stamps[s] = stamp;
      keys[s] = x;
    }
  }

  /** How many of ids[from, to) the set holds. */
  common(ids: Int32Array, from: number, to: number): number {
    const { keys, stamps, stamp, mask, shift, bits } = this;
    let common = 0;
    for (let j = from; j < to; j++) {
      const y = ids[j];
      if ((bits[y >>> 21] & (1 << ((y >>> 16) & 31))) === 0) continue;
      let s = Math.imul(y, 0x9e3779b1) >>> shift;
      while (stamps[s] === stamp) {
        if (keys[s] === y) {
          common++;
          break;
        }
        s = (s + 1) & mask;
      }
    }
    return common;
  }
}

/**
 * Distinct 32-bit ids (open addressing, linear probing, grown at half full), then each one's rank in
 * ascending unsigned order.
 */
export class IdTable {
  private keys = new Int32Array(1 << 12);
  private used = new Uint8Array(1 << 12);
  private vals = new Int32Array(0);
  private size = 0;
  private shift = 32 - 12;

  private slot(x: number): number {
    const mask = this.keys.length - 1;
    let s = Math.imul(x, 0x9e3779b1) >>> this.shift;
    while (this.used[s] === 1 && this.keys[s] !== x) s = (s + 1) & mask;
    return s;
  }

  add(x: number): void {
    const s = this.slot(x);
    if (this.used[s] === 1) return;
    this.used[s] = 1;
    this.keys[s] = x;
    if (++this.size * 2 > this.keys.length) this.grow();
  }

  private grow(): void {
    const { keys, used } = this;
    this.keys = new Int32Array(keys.length * 2);
    this.used = new Uint8Array(keys.length * 2);
    this.shift--;
    for (let s = 0; s < keys.length; s++)
      if (used[s] === 1) {
        const t = this.slot(keys[s]);
        this.used[t] = 1;
        this.keys[t] = keys[s];
      }
  }

  /** Numbers the ids held by ascending unsigned value; returns how many there are. */
  rank(): number {
    const sorted = new Uint32Array(this.size);
    let n = 0;
    for (let s = 0; s < this.keys.length; s++) if (this.used[s] === 1) sorted[n++] = this.keys[s] >>> 0;
    sorted.sort();
    this.vals = new Int32Array(this.keys.length);
    for (let r = 0; r < n; r++) this.vals[this.slot(sorted[r] | 0)] = r;
    return n;
  }

  /** The rank of an id held. */
  get(x: number): number {
    return this.vals[this.slot(x)];
  }
}

/**
 * Exact integer ids for token runs, without building a string per substring (Fig. 1's ST table holds
 * the substring itself; a crawl of 100k URLs has millions of them). A run is hashed over its token
 * ids into an open-addressing table, and a hash hit is confirmed by comparing tokens with the run that
 * first got the id, so two different runs never share an id however the hash collides.
 */
import { combine32, mix32 } from '../hash';

const EMPTY = -1;

export class SubstringIds {
  private readonly tok: Int32Array;
  private slots: Int32Array;
  private mask: number;
  private hashOf = new Uint32Array(1024);
  /** First occurrence of each id: tok[pos[id] … pos[id] + len[id]). */
  pos = new Uint32Array(1024);
  len = new Uint32Array(1024);
  size = 0;

  constructor(tok: Int32Array, capacity = 1 << 12) {
    this.tok = tok;
    let cap = 16;
    while (cap < 2 * capacity) cap *= 2;
    this.slots = new Int32Array(cap).fill(EMPTY);
    this.mask = cap - 1;
  }

  /** Id of the run tok[p … p + n); a new id when the run was not seen before. */
  id(p: number, n: number): number {
    const tok = this.tok;
    let h = 0x2f1b0c4d ^ n;
    for (let t = 0; t < n; t++) h = combine32(h, tok[p + t]);
    h = mix32(h);
    let s = h & this.mask;
    for (;;) {
      const id = this.slots[s];
      if (id === EMPTY) break;
      if (this.hashOf[id] === h && this.len[id] === n && this.same(this.pos[id], p, n)) return id;
      s = (s + 1) & this.mask;
    }
    const id = this.size++;
    if (id === this.pos.length) this.growIds();
    this.hashOf[id] = h;
    this.pos[id] = p;
    this.len[id] = n;
    this.slots[s] = id;
    if (2 * this.size > this.slots.length) this.rehash();
    return id;
  }

  /** The run of an id as token ids. */
  tokens(id: number): Int32Array {
    return this.tok.subarray(this.pos[id], this.pos[id] + this.len[id]);
  }

  private same(a: number, b: number, n: number): boolean {
    const tok = this.tok;
    for (let t = 0; t < n; t++) if (tok[a + t] !== tok[b + t]) return false;
    return true;
  }

  private growIds(): void {
    const cap = this.pos.length * 2;
    for (const key of ['hashOf', 'pos', 'len'] as const) {
      const a = new Uint32Array(cap);
      a.set(this[key]);
      this[key] = a;
    }
  }

  private rehash(): void {
    const cap = this.slots.length * 2;
    this.slots = new Int32Array(cap).fill(EMPTY);
    this.mask = cap - 1;
    for (let id = 0; id < this.size; id++) {
      let s = this.hashOf[id] & this.mask;
      while (this.slots[s] !== EMPTY) s = (s + 1) & this.mask;
      this.slots[s] = id;
    }
  }
}

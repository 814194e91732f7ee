/**
 * Many pages' feature codes, packed for the signature engine and the ordered index (feature-code.ts):
 * each code's symbols as ids, one id per distinct symbol (equal ids, equal symbols), in one array, with
 * each symbol's hash32 kept by id for the index's keys. A 10-word code costs 44 bytes a page here; a
 * string[] a page cost ~130 (the array and its backing store, the words interned), ~0.1 GB at 1M pages.
 */
import { hash32 } from '../hash';
import { growU32, roomFor } from '../growable-arrays';

export class PackedCodes {
  private symbols: Uint32Array = new Uint32Array(1024);
  private ends: Uint32Array = new Uint32Array(1024);
  /** 1 where the page has no code (not the same as an empty one). */
  private absent = new Uint8Array(1024);
  private hashes: Uint32Array = new Uint32Array(1024);
  private readonly idOf = new Map<string, number>();
  private pages = 0;
  private used = 0;

  static from(codes: readonly (readonly string[] | null)[]): PackedCodes {
    const p = new PackedCodes();
    for (const c of codes) p.push(c);
    return p;
  }

  get length(): number {
    return this.pages;
  }

  /** Adds the next page's code (null: the page has none). */
  push(code: readonly string[] | null): void {
    const p = this.pages++;
    if (p >= this.ends.length) {
      this.ends = growU32(this.ends, roomFor(p + 1));
      const a = new Uint8Array(this.ends.length);
      a.set(this.absent);
      this.absent = a;
    }
    const n = code?.length ?? 0;
    if (this.used + n > this.symbols.length) this.symbols = growU32(this.symbols, roomFor(this.used + n));
    for (let k = 0; k < n; k++) {
      const word = code![k];
      let id = this.idOf.get(word);
      if (id === undefined) {
        id = this.idOf.size;
        this.idOf.set(word, id);
        if (id >= this.hashes.length) this.hashes = growU32(this.hashes, roomFor(id + 1));
        this.hashes[id] = hash32(word);
      }
      this.symbols[this.used++] = id;
    }
    this.ends[p] = this.used;
    this.absent[p] = code ? 0 : 1;
  }

  /** Whether page p has a code (no view made: the engine asks this once a candidate pair). */
  has(p: number): boolean {
    return this.absent[p] === 0;
  }

  /** Page p's code as symbol ids (a view: valid until the next push), or null. */
  code(p: number): Uint32Array | null {
    if (this.absent[p]) return null;
    return this.symbols.subarray(p === 0 ? 0 : this.ends[p - 1], this.ends[p]);
  }

  /** The hash32 of the symbol with this id (the hash of its word). */
  hashOf(id: number): number {
    return this.hashes[id];
  }
}

/**
 * The pages of a WARC file that a later revisit record may point back to, remembered in typed arrays.
 *
 * Every response or resource page of a file stays here to the end of the read: a revisit may come at
 * any later point and names its original by record id (WARC-Refers-To) or by URL and payload digest.
 * Kept as JS objects in two Maps this was ~175 bytes a page of live heap in each ingest worker (heap
 * snapshot of a worker 40 s into a generated 1 GB WARC.gz: 120k originals, 5 small strings each), and
 * V8 grows a worker's heap to several times its live size, so the renderer's peak felt it several times
 * over. Here a page costs its title string and ~70 bytes of typed arrays.
 *
 * Keys are 64-bit hashes of the record id, or of the URL and digest, in two open-addressing tables. A
 * collision would tie a revisit to the wrong page: about n²/2⁶⁵, 3·10⁻⁹ for 333,312 pages.
 */
import { hash64Into } from '../hash';

/** What a revisit takes from its original. */
export interface Original {
  seq: number;
  title: string;
  fingerprint: string;
  textLength: number;
  mime: string;
}

/** The two halves of the last key hashed (module state: no allocation per key). */
const lanes = new Uint32Array(2);
let h1 = 0;
let h2 = 0;

/** Hash `s` into (h1, h2): the core's 64-bit string hash (hash.ts hash64Into), as int32 halves. */
function hash(s: string): void {
  hash64Into(s, lanes);
  h1 = lanes[0] | 0;
  h2 = lanes[1] | 0;
}

/** 64-bit key → entry number (open addressing, linear probing, at most half full). */
class KeyTable {
  private keys = new Int32Array(2 * 1024);
  /** Entry number + 1; 0 is an empty slot. */
  private vals = new Int32Array(1024);
  private size = 0;

  /** Entry for the key last hashed, or -1. */
  get(): number {
    const mask = this.vals.length - 1;
    for (let i = (h1 ^ Math.imul(h2, 0x9e3779b1)) & mask; ; i = (i + 1) & mask) {
      const v = this.vals[i];
      if (v === 0) return -1;
      if (this.keys[2 * i] === h1 && this.keys[2 * i + 1] === h2) return v - 1;
    }
  }

  /** Key last hashed → `entry`; a later page of the same key replaces the earlier (as Map#set did). */
  set(entry: number): void {
    if (2 * (this.size + 1) > this.vals.length) this.grow();
    if (this.place(h1, h2, entry + 1)) this.size++;
  }

  /** Put; true when the key is new. */
  private place(k1: number, k2: number, v: number): boolean {
    const mask = this.vals.length - 1;
    for (let i = (k1 ^ Math.imul(k2, 0x9e3779b1)) & mask; ; i = (i + 1) & mask) {
      if (this.vals[i] === 0 || (this.keys[2 * i] === k1 && this.keys[2 * i + 1] === k2)) {
        const fresh = this.vals[i] === 0;
        this.keys[2 * i] = k1;
        this.keys[2 * i + 1] = k2;
        this.vals[i] = v;
        return fresh;
      }
    }
  }

  private grow(): void {
    const { keys, vals } = this;
    this.keys = new Int32Array(keys.length * 2);
    this.vals = new Int32Array(vals.length * 2);
    for (let i = 0; i < vals.length; i++)
      if (vals[i] !== 0) this.place(keys[2 * i], keys[2 * i + 1], vals[i]);
  }
}

const HEX16 = /^[0-9a-f]{16}$/;

/** The originals of one file, by record id and by URL + payload digest. */
export class Origins {
  private readonly byRecordId = new KeyTable();
  private readonly byUriDigest = new KeyTable();
  private n = 0;
  private seqs = new Float64Array(1024);
  private lengths = new Float64Array(1024);
  /** The fingerprint's two 32-bit halves (fingerprints are 16 hex digits; others go to `oddPrints`). */
  private prints = new Uint32Array(2 * 1024);
  private mimes = new Int32Array(1024);
  private readonly titles: string[] = [];
  /** Fingerprints that are not 16 hex digits (none from this project's readers), by entry. */
  private readonly oddPrints = new Map<number, string>();
  private readonly mimeIds = new Map<string, number>();
  private readonly mimeNames: string[] = [];

  /** Remember `o` under its record id and its URL + digest (either may be empty: not indexed). */
  add(o: Original, recordId: string, url: string, digest: string): void {
    if (!recordId && !digest) return;
    const e = this.n++;
    if (e === this.seqs.length) this.grow();
    this.seqs[e] = o.seq;
    this.lengths[e] = o.textLength;
    if (HEX16.test(o.fingerprint)) {
      this.prints[2 * e] = parseInt(o.fingerprint.slice(0, 8), 16);
      this.prints[2 * e + 1] = parseInt(o.fingerprint.slice(8), 16);
    } else this.oddPrints.set(e, o.fingerprint);
    let m = this.mimeIds.get(o.mime);
    if (m === undefined) {
      m = this.mimeNames.push(o.mime) - 1;
      this.mimeIds.set(o.mime, m);
    }
    this.mimes[e] = m;
    this.titles.push(o.title);
    if (recordId) {
      hash(recordId);
      this.byRecordId.set(e);
    }
    if (digest) {
      hash(url + ' ' + digest);
      this.byUriDigest.set(e);
    }
  }

  /** The original a revisit names: by record id first, else by URL + digest; null when not in the file. */
  find(refId: string, refUri: string, digest: string): Original | null {
    let e = -1;
    if (refId) {
      hash(refId);
      e = this.byRecordId.get();
    }
    if (e < 0) {
      hash(refUri + ' ' + digest);
      e = this.byUriDigest.get();
    }
    return e < 0 ? null : this.entry(e);
  }

  private entry(e: number): Original {
    const odd = this.oddPrints.get(e);
    return {
      seq: this.seqs[e],
      title: this.titles[e],
      fingerprint: odd ?? hex8(this.prints[2 * e]) + hex8(this.prints[2 * e + 1]),
      textLength: this.lengths[e],
      mime: this.mimeNames[this.mimes[e]],
    };
  }

  private grow(): void {
    const n = this.seqs.length * 2;
    const grown = <T extends Float64Array | Uint32Array | Int32Array>(a: T, k = 1): T => {
      const b = new (a.constructor as new (n: number) => T)(n * k);
      b.set(a);
      return b;
    };
    this.seqs = grown(this.seqs);
    this.lengths = grown(this.lengths);
    this.prints = grown(this.prints, 2);
    this.mimes = grown(this.mimes);
  }
}

function hex8(x: number): string {
  return x.toString(16).padStart(8, '0');
}

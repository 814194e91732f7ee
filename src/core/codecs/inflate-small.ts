/**
 * Raw DEFLATE (RFC 1951) into a buffer of known size, for the many small gzip members of a WARC.gz (one
 * record each: a few KiB of compressed response on most crawls), which the browser's read gives to JS
 * (DecompressionStream's fixed cost per stream loses below 8 KiB: gzip-native.ts). zlib-style tables:
 * 2^10 entries for literals and lengths, 2^8 for distances, built once a block into arrays made once; the
 * rarer longer codes decoded canonically, a bit at a time (as zlib's puff does). Measured in this
 * Chromium (one thread, every member < 8 KiB, medians of 6 passes): the generated 12 MB crawl's 7,951
 * members 203 ms with fflate, 164 ms here; docsite's 2,859 71 → 60 ms; the app's drop of the generated
 * 210 MB file (2–5 KiB responses) 9.01 → 8.06 s (3 drops each, alternated, each pair faster). In Node
 * fflate and this are closer (172 against 187 ms), and the CLI inflates with zlib anyway.
 *
 * Strict and quiet: anything but a whole valid stream that fits `out` — an unknown block type, a bad or
 * over-subscribed code, a stored block's length check, input that ends before the final block, a distance
 * before the start, more output than `out` holds — answers null, and the caller inflates the member with
 * fflate instead, which reads what it can and words the error (gzip-member.ts). Input after the final
 * block (the gzip trailer) is ignored, as fflate ignores it. Tested against zlib on seeded random inputs of
 * every level and strategy, and against fflate on damaged ones (test/core/codecs/inflate-small.test.ts).
 */

const LIT_BITS = 10;
const DIST_BITS = 8;

/** Base lengths and extra bits of length symbols 257–285; base distances and extra bits of 0–29. */
const LEN_BASE = Uint16Array.from([
  3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195,
  227, 258,
]);
const LEN_EXTRA = Uint8Array.from([
  0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
]);
const DIST_BASE = Uint16Array.from([
  1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
  6145, 8193, 12289, 16385, 24577,
]);
const DIST_EXTRA = Uint8Array.from([
  0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
]);
/** Order of the code length code lengths in a dynamic block's header. */
const CL_ORDER = Uint8Array.from([16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]);

/**
 * A canonical Huffman code: `table` maps the next `bits` input bits (LSB first) to symbol << 4 | length
 * (0: a code longer than `bits`, decoded from `count` and `symbol`, puff's way).
 */
class Code {
  readonly table: Int32Array;
  /** Codes of each length (1–15), and the symbols in canonical order. */
  readonly count = new Uint16Array(16);
  readonly symbol: Uint16Array;
  private readonly next = new Uint16Array(16);

  constructor(
    readonly bits: number,
    symbols: number,
  ) {
    this.table = new Int32Array(1 << bits);
    this.symbol = new Uint16Array(symbols);
  }

  /** Builds the code of these lengths; false when it is over-subscribed. */
  build(lengths: Uint8Array, n: number): boolean {
    const { count, next, table, bits, symbol } = this;
    count.fill(0);
    for (let s = 0; s < n; s++) count[lengths[s]]++;
    count[0] = 0;
    let left = 1;
    for (let len = 1; len < 16; len++) {
      left = (left << 1) - count[len];
      if (left < 0) return false;
    }
    next[1] = 0;
    for (let len = 1; len < 15; len++) next[len + 1] = next[len] + count[len];
    for (let s = 0; s < n; s++) if (lengths[s] !== 0) symbol[next[lengths[s]]++] = s;
    table.fill(0);
    // Canonical codes in order of length then symbol; each reversed (deflate sends them MSB first).
    let code = 0;
    let k = 0;
    for (let len = 1; len <= bits; len++) {
      for (let c = 0; c < count[len]; c++, k++) {
        let rev = 0;
        for (let b = 0, x = code; b < len; b++, x >>= 1) rev = (rev << 1) | (x & 1);
        const entry = (symbol[k] << 4) | len;
        for (let i = rev; i < table.length; i += 1 << len) table[i] = entry;
        code++;
      }
      code <<= 1;
    }
    return true;
  }
}

const lit = new Code(LIT_BITS, 288);
const dist = new Code(DIST_BITS, 32);
const clCode = new Code(7, 19);
const fixedLit = new Code(LIT_BITS, 288);
const fixedDist = new Code(DIST_BITS, 32);
const lengths = new Uint8Array(288 + 32);
const cl = new Uint8Array(19);
const LIT_MASK = (1 << LIT_BITS) - 1;
const DIST_MASK = (1 << DIST_BITS) - 1;
{
  const l = new Uint8Array(288);
  l.fill(8, 0, 144);
  l.fill(9, 144, 256);
  l.fill(7, 256, 280);
  l.fill(8, 280, 288);
  fixedLit.build(l, 288);
  fixedDist.build(new Uint8Array(30).fill(5), 30);
}

/**
 * The symbol of the code `c` at the start of `hold` (≥ 15 bits in it) when its table has no entry (a code
 * longer than the table's bits): symbol << 4 | length, or -1 (canonical decoding, puff's way).
 */
function slowSymbol(c: Code, hold: number): number {
  let code = 0;
  let first = 0;
  let index = 0;
  for (let len = 1; len < 16; len++) {
    code |= (hold >>> (len - 1)) & 1;
    const count = c.count[len];
    if (code - count < first) return (c.symbol[index + (code - first)] << 4) | len;
    index += count;
    first = (first + count) << 1;
    code <<= 1;
  }
  return -1;
}

/**
 * Inflates the raw DEFLATE stream at the start of `src` into `out`: the bytes written (a view of `out`),
 * or null (see the module's comment). One function, its state in locals (a closure's captured variables
 * live in a heap context: a first version with helper closures ran 30% slower than fflate).
 */
export function inflateSmall(src: Uint8Array, out: Uint8Array): Uint8Array | null {
  const end = src.length;
  const cap = out.length;
  let pos = 0;
  // Bits not yet used, LSB first; past the input's end zeros come in (checked at each block's end).
  let hold = 0;
  let bits = 0;
  let n = 0;
  for (;;) {
    while (bits < 24) {
      hold |= (pos < end ? src[pos] : 0) << bits;
      pos++;
      bits += 8;
    }
    const final = hold & 1;
    const type = (hold >>> 1) & 3;
    hold >>>= 3;
    bits -= 3;
    if (type === 0) {
      // Stored: to a byte boundary, LEN and its complement, LEN bytes. The whole bytes held are unread.
      let at = pos - (bits >>> 3);
      hold = 0;
      bits = 0;
      if (at + 4 > end) return null;
      const len = src[at] | (src[at + 1] << 8);
      const nlen = src[at + 2] | (src[at + 3] << 8);
      at += 4;
      if ((len ^ 0xffff) !== nlen || at + len > end || n + len > cap) return null;
      out.set(src.subarray(at, at + len), n);
      n += len;
      pos = at + len;
    } else if (type === 3) return null;
    else {
      let lc = fixedLit;
      let dc = fixedDist;
      if (type === 2) {
        const nlit = (hold & 31) + 257;
        const ndist = ((hold >>> 5) & 31) + 1;
        const ncl = ((hold >>> 10) & 15) + 4;
        hold >>>= 14;
        bits -= 14;
        if (nlit > 286 || ndist > 30) return null;
        cl.fill(0);
        for (let i = 0; i < ncl; i++) {
          while (bits < 24) {
            hold |= (pos < end ? src[pos] : 0) << bits;
            pos++;
            bits += 8;
          }
          cl[CL_ORDER[i]] = hold & 7;
          hold >>>= 3;
          bits -= 3;
        }
        if (!clCode.build(cl, 19)) return null;
        const total = nlit + ndist;
        const ct = clCode.table;
        for (let i = 0; i < total;) {
          while (bits < 24) {
            hold |= (pos < end ? src[pos] : 0) << bits;
            pos++;
            bits += 8;
          }
          // The code length code's longest code is 7 bits: its table holds every code.
          const e = ct[hold & 127];
          if (e === 0) return null;
          hold >>>= e & 15;
          bits -= e & 15;
          const sym = e >>> 4;
          if (sym < 16) {
            lengths[i++] = sym;
            continue;
          }
          let prev = 0;
          let rep: number;
          if (sym === 16) {
            if (i === 0) return null;
            prev = lengths[i - 1];
            rep = 3 + (hold & 3);
            hold >>>= 2;
            bits -= 2;
          } else if (sym === 17) {
            rep = 3 + (hold & 7);
            hold >>>= 3;
            bits -= 3;
          } else {
            rep = 11 + (hold & 127);
            hold >>>= 7;
            bits -= 7;
          }
          if (i + rep > total) return null;
          lengths.fill(prev, i, i + rep);
          i += rep;
        }
        if (lengths[256] === 0) return null;
        if (!lit.build(lengths, nlit) || !dist.build(lengths.subarray(nlit, total), ndist)) return null;
        lc = lit;
        dc = dist;
      }
      const lt = lc.table;
      const dt = dc.table;
      for (;;) {
        if (bits < 15) {
          if (pos + 1 < end) {
            hold |= (src[pos] | (src[pos + 1] << 8)) << bits;
            pos += 2;
            bits += 16;
          } else
            while (bits < 24) {
              hold |= (pos < end ? src[pos] : 0) << bits;
              pos++;
              bits += 8;
            }
        }
        let e = lt[hold & LIT_MASK];
        if (e === 0 && (e = slowSymbol(lc, hold)) < 0) return null;
        hold >>>= e & 15;
        bits -= e & 15;
        const sym = e >>> 4;
        if (sym < 256) {
          if (n >= cap) return null;
          out[n++] = sym;
          continue;
        }
        if (sym === 256) break;
        const li = sym - 257;
        if (li >= 29) return null;
        // Length extra (≤ 5 bits), then the distance code (≤ 15) and its extra (≤ 13): refill as needed.
        if (bits < 20) {
          if (pos + 1 < end && bits < 16) {
            hold |= (src[pos] | (src[pos + 1] << 8)) << bits;
            pos += 2;
            bits += 16;
          } else
            while (bits < 24) {
              hold |= (pos < end ? src[pos] : 0) << bits;
              pos++;
              bits += 8;
            }
        }
        const le = LEN_EXTRA[li];
        const len = LEN_BASE[li] + (hold & ((1 << le) - 1));
        hold >>>= le;
        bits -= le;
        let de = dt[hold & DIST_MASK];
        if (de === 0 && (de = slowSymbol(dc, hold)) < 0) return null;
        hold >>>= de & 15;
        bits -= de & 15;
        const ds = de >>> 4;
        if (ds >= 30) return null;
        if (bits < 13) {
          if (pos + 1 < end) {
            hold |= (src[pos] | (src[pos + 1] << 8)) << bits;
            pos += 2;
            bits += 16;
          } else
            while (bits < 24) {
              hold |= (pos < end ? src[pos] : 0) << bits;
              pos++;
              bits += 8;
            }
        }
        const dx = DIST_EXTRA[ds];
        const d = DIST_BASE[ds] + (hold & ((1 << dx) - 1));
        hold >>>= dx;
        bits -= dx;
        if (d > n || n + len > cap) return null;
        if (d >= len && len > 32) {
          out.copyWithin(n, n - d, n - d + len);
          n += len;
        } else for (let k = 0; k < len; k++, n++) out[n] = out[n - d];
      }
    }
    // Read past the input (zeros were decoded): not a whole stream.
    if (pos - (bits >>> 3) > end) return null;
    if (final) return out.subarray(0, n);
  }
}

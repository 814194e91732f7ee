/**
 * Page contents stored a batch to a value: how a batch's contents are packed into one chunk (packChunk),
 * read back a page at a time (ChunkReader), and what a chunk costs to store (chunkBytes). The tables
 * that hold chunks, and their history, are in schema.ts.
 */
import type { PageContent } from '../core/types';

/**
 * The contents of one ingest batch (up to 500 pages) as ONE IndexedDB value. Why: Chromium writes one
 * 2.5 MB value of 500 contents ~3× faster than the same contents as 500 values (115 against 36 MB/s,
 * measured in this Chromium; large values go to a blob file instead of LevelDB), and storage was the
 * largest cost of ingesting a big crawl in the browser. Reading one page's content reads its chunk.
 *
 * The contents are packed (packChunk): each page's strings joined into one, their lengths, the counts
 * and template hints in typed arrays. Why: structured serialisation of 500 objects holding ~10⁴–10⁵
 * strings was the largest single function of a big ingest. Measured in Chromium (2 cores, A/B in the
 * same period): the worker's IndexedDB wait on the generated 210 MB crawl 8.8 / 6.5 s → 5.8 / 5.9 s;
 * one page is cut out of its chunk alone (loadContent), a whole chunk's read costs about the same as
 * before. The strings stay strings: UTF-8 (TextEncoder) halves a text with characters beyond Latin-1,
 * which V8 writes as UTF-16 (docsite: 14.6 → 10.5 MB stored), but encoding a batch cost about what it
 * saved in serialising, decoding made reading a dataset ~40% slower, Latin-1 text (a byte a character
 * already) only lost, and UTF-8 cannot hold a lone surrogate. Page rows, the larger part of a batch's
 * write (and most of the browser process's CPU), cost per row, not per byte (rows of four fields were
 * no cheaper): they stay as they are.
 */
export interface StoredChunk {
  datasetId: number;
  /** The chunk's key: the first seq of its batch (seqs are unique in a dataset). */
  chunk: number;
  /** The pages' seqs, in batch order. */
  seqs: Float64Array;
  /** Four per page: its outlinks, raw outlinks, headers, template hints (-1: none, not an empty list). */
  counts: Int32Array;
  /** Each page's strings joined: its text, outlinks, raw outlinks, then each header's name and value. */
  pages: string[];
  /** Each of those strings' length (String.length), to cut a page's string apart. */
  lengths: Uint16Array | Uint32Array;
  /** All pages' template hints, one after the other (counts say whose). */
  hints: Float64Array;
  /**
   * For each page, the earlier page of the chunk whose text it has (its own text is then stored
   * empty), or -1. Absent in chunks that share none (and in chunks written before it existed).
   */
  textOf?: Int32Array;
}

const FIELDS = 4;

/** One batch's contents as a chunk (see StoredChunk). */
export function packChunk(datasetId: number, chunk: number, contents: readonly PageContent[]): StoredChunk {
  const n = contents.length;
  const seqs = new Float64Array(n);
  const counts = new Int32Array(n * FIELDS);
  const strings: string[] = [];
  const pages: string[] = new Array(n);
  const hintList: number[] = [];
  let longest = 0;
  // The same text is stored once a chunk: a page served under several URLs (DUST) is often read in the
  // same batch as its aliases (docsite: a third of its text characters), and with the read's body cache
  // its copies are the same string, so the lookup costs little.
  const firstWith = new Map<string, number>();
  let textOf: Int32Array | undefined;
  for (let i = 0; i < n; i++) {
    const c = contents[i];
    seqs[i] = c.seq;
    let text = c.text;
    if (text.length >= MIN_SHARED_TEXT) {
      const j = firstWith.get(text);
      if (j === undefined) firstWith.set(text, i);
      else {
        textOf ??= new Int32Array(n).fill(-1);
        textOf[i] = j;
        text = '';
      }
    }
    counts[i * FIELDS] = c.outlinks.length;
    counts[i * FIELDS + 1] = c.rawOutlinks.length;
    counts[i * FIELDS + 2] = c.headers.length;
    counts[i * FIELDS + 3] = c.templateHints ? c.templateHints.length : -1;
    const first = strings.length;
    strings.push(text);
    for (const s of c.outlinks) strings.push(s);
    for (const s of c.rawOutlinks) strings.push(s);
    for (const [k, v] of c.headers) strings.push(k, v);
    if (c.templateHints) for (const h of c.templateHints) hintList.push(h);
    pages[i] = strings.length - first === 1 ? text : strings.slice(first).join('');
  }
  for (let k = 0; k < strings.length; k++) if (strings[k].length > longest) longest = strings[k].length;
  const lengths = longest < 0x10000 ? new Uint16Array(strings.length) : new Uint32Array(strings.length);
  for (let k = 0; k < strings.length; k++) lengths[k] = strings[k].length;
  const row: StoredChunk = {
    datasetId,
    chunk,
    seqs,
    counts,
    pages,
    lengths,
    hints: Float64Array.from(hintList),
  };
  if (textOf) row.textOf = textOf;
  return row;
}

/** Texts shorter than this are stored as they are (an empty or one-line text costs less than its lookup). */
const MIN_SHARED_TEXT = 64;

/**
 * Reads the contents of a stored chunk one page at a time: cutting up only the pages asked for (the page
 * detail wants one page of a chunk's 500), each once.
 */
export class ChunkReader {
  readonly seqs: Float64Array;
  private readonly row: StoredChunk;
  /** Index of each page's first string and first template hint. */
  private readonly firstString: Int32Array;
  private readonly firstHint: Int32Array;
  private readonly done: (PageContent | undefined)[];
  private bySeq: Map<number, number> | null = null;

  constructor(row: StoredChunk) {
    this.row = row;
    this.seqs = row.seqs;
    const n = row.seqs.length;
    this.firstString = new Int32Array(n + 1);
    this.firstHint = new Int32Array(n + 1);
    for (let i = 0; i < n; i++) {
      const c = row.counts.subarray(i * FIELDS, (i + 1) * FIELDS);
      this.firstString[i + 1] = this.firstString[i] + 1 + c[0] + c[1] + 2 * c[2];
      this.firstHint[i + 1] = this.firstHint[i] + Math.max(0, c[3]);
    }
    this.done = new Array(n);
  }

  /** The content of the page with this seq (undefined when the chunk has no such page). */
  get(seq: number): PageContent | undefined {
    if (!this.bySeq) {
      this.bySeq = new Map();
      for (let i = 0; i < this.seqs.length; i++) this.bySeq.set(this.seqs[i], i);
    }
    const i = this.bySeq.get(seq);
    return i === undefined ? undefined : this.at(i);
  }

  /** The content of the chunk's i-th page. */
  at(i: number): PageContent {
    const known = this.done[i];
    if (known) return known;
    const { row } = this;
    const all = row.pages[i];
    let k = this.firstString[i];
    let at = 0;
    const next = (): string => all.slice(at, (at += row.lengths[k++]));
    const count = i * FIELDS;
    const own = next();
    const shared = row.textOf ? row.textOf[i] : -1;
    const text = shared >= 0 ? this.at(shared).text : own;
    const outlinks: string[] = new Array(row.counts[count]);
    for (let j = 0; j < outlinks.length; j++) outlinks[j] = next();
    const rawOutlinks: string[] = new Array(row.counts[count + 1]);
    for (let j = 0; j < rawOutlinks.length; j++) rawOutlinks[j] = next();
    const headers: [string, string][] = new Array(row.counts[count + 2]);
    for (let j = 0; j < headers.length; j++) headers[j] = [next(), next()];
    const c: PageContent = { seq: row.seqs[i], text, outlinks, rawOutlinks, headers };
    if (row.counts[count + 3] >= 0) {
      // A loop, not Array.from: that walks a typed array through its iterator.
      const hints: number[] = new Array(row.counts[count + 3]);
      for (let j = 0, h = this.firstHint[i]; j < hints.length; j++) hints[j] = row.hints[h + j];
      c.templateHints = hints;
    }
    this.done[i] = c;
    return c;
  }
}

/** A character beyond Latin-1 (V8 answers at once for a one-byte string: it cannot hold one). */
const BEYOND_LATIN1 = /[^\0-\xff]/;

/**
 * The bytes a chunk takes (its arrays; strings a byte a character, two when any is beyond Latin-1, as
 * V8 serialises them), for Dataset.storedBytes.
 */
export function chunkBytes(row: StoredChunk): number {
  let n = row.seqs.byteLength + row.counts.byteLength + row.lengths.byteLength + row.hints.byteLength;
  if (row.textOf) n += row.textOf.byteLength;
  for (const s of row.pages) n += (BEYOND_LATIN1.test(s) ? 2 : 1) * s.length + 4;
  return n;
}

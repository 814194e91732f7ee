/**
 * A sample's URL layer (issue "A sample of any crawl"): every HTML capture of the crawl's index, kept
 * as lines so that DustBuster mines its rules on every URL of the crawl — URLs are cheap — while the
 * rules are validated on the sampled pages, the only ones with a document (workers/dust-job.ts), and on
 * the partners of sampled URLs read by byte range from the place each line gives (dust/partners.ts).
 * A line: `url TAB status TAB length TAB digest TAB offset TAB file` (tabs and line breaks in a URL
 * written as %09, %0A, %0D; `file` a number into SampleInfo.layerFiles). Lines stored before places
 * were kept end after the digest.
 */
import { normaliseUrl } from '../url/normalize';
import type { DustRecord } from './types';

export interface LayerCapture {
  url: string;
  status: number;
  /** The record's bytes in its file (-1 unknown): the size a CDX dataset gives its URLs too. */
  length: number;
  /** Payload digest without its `sha1:` prefix ('' unknown). */
  digest: string;
  /** The record's offset in its file, and the file (a number into SampleInfo.layerFiles). */
  offset?: number;
  file?: number;
}

const escapeUrl = (u: string) => u.replace(/\t/g, '%09').replace(/\n/g, '%0A').replace(/\r/g, '%0D');

export function layerLine(c: LayerCapture): string {
  const place = c.offset !== undefined && c.file !== undefined ? `\t${c.offset}\t${c.file}` : '';
  return `${escapeUrl(c.url)}\t${c.status}\t${c.length}\t${c.digest}${place}`;
}

/** Where a capture of the layer is: its file (a number into SampleInfo.layerFiles), offset, length. */
export interface LayerPlace {
  file: number;
  offset: number;
  /** Bytes of the record (-1 unknown: it ends where the file's next capture begins). */
  length: number;
}

function recordOf(url: string, status: string, length: string, digest: string): DustRecord {
  let norm = url;
  try {
    norm = normaliseUrl(url).href;
  } catch {
    /* not a URL the normaliser reads: kept as written, as ingest keeps it */
  }
  const size = Number(length);
  return {
    url: norm,
    status: Number(status) || 0,
    recordType: 'cdx line',
    sizeMin: Number.isFinite(size) ? size : -1,
    sizeMax: Number.isFinite(size) ? size : -1,
    digest: digest ? `sha1:${digest}` : '',
    sketch: null,
  };
}

/** The DustBuster records of a chunk of layer lines: URLs with sizes and digests, no document. */
export function layerRecords(lines: string): DustRecord[] {
  const layer = new UrlLayer();
  layer.add(lines);
  return layer.records;
}

/**
 * The layer read back: its records (what DustBuster mines) and, beside them, each capture's place in
 * its file (columns, not objects: a layer may have millions of lines).
 */
export class UrlLayer {
  readonly records: DustRecord[] = [];
  private readonly file: number[] = [];
  private readonly offset: number[] = [];
  private readonly length: number[] = [];

  /** Adds a chunk of lines. */
  add(lines: string): void {
    for (const line of lines.split('\n')) {
      if (line === '') continue;
      const [url, status, length, digest, offset, file] = line.split('\t');
      this.records.push(recordOf(url, status, length, digest));
      const o = offset === undefined ? NaN : Number(offset);
      const f = file === undefined ? NaN : Number(file);
      const ok =
        offset !== '' && file !== '' && Number.isInteger(o) && o >= 0 && Number.isInteger(f) && f >= 0;
      this.file.push(ok ? f : -1);
      this.offset.push(ok ? o : -1);
      this.length.push(Number(length) || -1);
    }
  }

  /** Whether any line gives a place (a layer stored before places were kept gives none). */
  get hasPlaces(): boolean {
    return this.file.some((f) => f >= 0);
  }

  /**
   * The place of each of `urls` (normalised, as the records spell them) that the layer holds: of a URL
   * captured more than once, a capture with a 2xx status first, else the first. A length the index
   * does not state is the distance to the file's next capture in the layer (the last one's stays -1:
   * to the file's end).
   */
  placesOf(urls: ReadonlySet<string>): Map<string, LayerPlace> {
    const out = new Map<string, LayerPlace>();
    const twoHundred = new Set<string>();
    this.records.forEach((r, i) => {
      if (this.file[i] < 0 || !urls.has(r.url) || twoHundred.has(r.url)) return;
      const ok = (r.status ?? 0) >= 200 && (r.status ?? 0) < 300;
      if (out.has(r.url) && !ok) return;
      out.set(r.url, { file: this.file[i], offset: this.offset[i], length: this.length[i] });
      if (ok) twoHundred.add(r.url);
    });
    if ([...out.values()].some((p) => p.length < 0)) {
      const starts = new Map<number, number[]>();
      this.file.forEach((f, i) => {
        if (f < 0) return;
        let list = starts.get(f);
        if (!list) starts.set(f, (list = []));
        list.push(this.offset[i]);
      });
      for (const list of starts.values()) list.sort((a, b) => a - b);
      for (const p of out.values()) {
        if (p.length >= 0) continue;
        const list = starts.get(p.file)!;
        let lo = 0;
        let hi = list.length;
        while (lo < hi) {
          const mid = (lo + hi) >> 1;
          if (list[mid] <= p.offset) lo = mid + 1;
          else hi = mid;
        }
        if (lo < list.length) p.length = list[lo] - p.offset;
      }
    }
    return out;
  }
}

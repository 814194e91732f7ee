import { DesignColumnsBuilder, type DesignColumns } from '../eval/design-columns';
import { isPageEntry, type IndexEntry } from './crawl-index';

/** A crawl index's pages in columns, as sample-plan.ts designs and cuts a sample from them. */

/** The file name an index gives, without its directories (a WACZ's index says archive/…). */
export function baseName(name: string): string {
  return name.slice(name.lastIndexOf('/') + 1);
}

/**
 * The index's pages (HTML captures with a place in a file) in columns: what the design reads, and where
 * each record is. Built an entry at a time, so an index of millions of lines is never held as objects.
 */
export interface IndexPages {
  design: DesignColumns;
  offset: Float64Array;
  length: Float64Array;
  /** File of each page (an index into `files`, names as the index gives them, directories dropped). */
  file: Int32Array;
  files: string[];
}

export class IndexPagesBuilder {
  private readonly design = new DesignColumnsBuilder();
  private n = 0;
  private offset = new Float64Array(1024);
  private length = new Float64Array(1024);
  private file = new Int32Array(1024);
  private readonly fileIds = new Map<string, number>();
  /** Entries seen, and those that are pages. */
  entries = 0;

  /** Every indexed record's offset by file: where a record without a stated length ends. */
  private readonly starts = new Map<number, number[]>();
  private unknownLengths = false;

  add(e: IndexEntry): void {
    this.entries++;
    if (e.offset >= 0 && e.filename !== '') {
      const name = baseName(e.filename);
      let id = this.fileIds.get(name);
      if (id === undefined) this.fileIds.set(name, (id = this.fileIds.size));
      let list = this.starts.get(id);
      if (!list) this.starts.set(id, (list = []));
      list.push(e.offset);
    }
    if (!isPageEntry(e)) return;
    if (e.length < 0) this.unknownLengths = true;
    if (this.n === this.offset.length) {
      const m = this.n * 2;
      const o = new Float64Array(m);
      o.set(this.offset);
      this.offset = o;
      const l = new Float64Array(m);
      l.set(this.length);
      this.length = l;
      const f = new Int32Array(m);
      f.set(this.file);
      this.file = f;
    }
    const id = this.fileIds.get(baseName(e.filename))!;
    this.offset[this.n] = e.offset;
    this.length[this.n] = e.length;
    this.file[this.n] = id;
    this.n++;
    this.design.add(e.url, e.digest, e.length);
  }

  get pages(): number {
    return this.n;
  }

  /**
   * The pages; a length the index does not state is the distance to the file's next indexed record, or
   * to the file's end (`sizes`, by name) for its last; a page whose end cannot be known is dropped.
   */
  finish(sizes?: ReadonlyMap<string, number>): IndexPages {
    const files = [...this.fileIds.keys()];
    const design = this.design.finish();
    let offset = this.offset.slice(0, this.n);
    let length = this.length.slice(0, this.n);
    let file = this.file.slice(0, this.n);
    if (this.unknownLengths) {
      const sorted = new Map<number, Float64Array>();
      for (const [id, list] of this.starts) sorted.set(id, Float64Array.from(new Set(list)).sort());
      const keep: number[] = [];
      for (let i = 0; i < this.n; i++) {
        if (length[i] < 0) {
          const starts = sorted.get(file[i])!;
          let lo = 0;
          let hi = starts.length;
          while (lo < hi) {
            const mid = (lo + hi) >> 1;
            if (starts[mid] <= offset[i]) lo = mid + 1;
            else hi = mid;
          }
          const end = lo < starts.length ? starts[lo] : (sizes?.get(files[file[i]]) ?? -1);
          length[i] = end > offset[i] ? end - offset[i] : -1;
          design.bytes[i] = Math.max(0, length[i]);
        }
        if (length[i] > 0) keep.push(i);
      }
      if (keep.length < this.n) {
        const pick = <T extends Float64Array | Int32Array>(a: T): T => {
          const out = new (a.constructor as new (n: number) => T)(keep.length);
          for (let k = 0; k < keep.length; k++) out[k] = a[keep[k]];
          return out;
        };
        offset = pick(offset);
        length = pick(length);
        file = pick(file);
        const d = design;
        d.site = pick(d.site);
        d.digest = pick(d.digest);
        d.bytes = pick(d.bytes);
        d.dirs = [pick(d.dirs[0]), pick(d.dirs[1]), pick(d.dirs[2])];
        d.length = keep.length;
      }
    }
    return { design, offset, length, file, files };
  }
}

/** The index pages of a list of entries (tests, small indexes). */
export function indexPages(entries: readonly IndexEntry[]): IndexPages {
  const b = new IndexPagesBuilder();
  for (const e of entries) b.add(e);
  return b.finish();
}

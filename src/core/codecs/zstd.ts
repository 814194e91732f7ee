/**
 * Zstandard-compressed crawl files (`.warc.zst`, `.jsonl.zst`, `.csv.zst`; RFC 8878), read as a stream
 * of frames the way gzip files are read as members (gzip.ts): each frame's data goes to the format's
 * reader with the frame's offset in the file, so a WARC compressed a frame per record (the WARC zstd
 * layout) has its records at their frames, as a WARC.gz has them at their members.
 *
 * fzstd decodes, one frame at a time and one block at a time: the frames are walked here first (their
 * headers and block headers say where everything is), so what a hostile file can make the read hold is
 * bounded before a byte is decoded —
 * - a block decodes to at most 128 KiB (the format's own limit), and blocks are handed over one by one;
 * - a frame's window (the history a decoder keeps) is refused past BUDGET.zstdWindow, 32 MiB, which is
 *   also fzstd's own limit for correct back-references (frames made with `--long`/`--ultra` need more);
 * - the content size a header declares is dropped before fzstd sees the header (fzstd would allocate
 *   it whole: a 20-byte frame can declare 2 GB), the window descriptor kept or made from it;
 * - dictionaries are refused with a clear reason: fzstd has none (the WARC zstd layout's first frame,
 *   a skippable frame holding the dictionary, says so at once);
 * - skippable frames are passed over; a frame cut short or bytes that are no frame are a fault at
 *   their byte.
 */
import { Decompress } from 'fzstd';
import { BUDGET, mib } from './budget';
import { FormatFault } from '../format-fault';
import type { MemberSink, SkipSink } from './gzip';
import { concat, dictDecode, dictReady } from './zstd-dictionary';

const MAGIC = 0xfd2fb528;
/** Skippable frames: 0x184D2A50 to 0x184D2A5F; the WARC zstd layout's dictionary frame is 0x184D2A5D. */
const SKIPPABLE = 0x184d2a50;
const DICTIONARY_FRAME = 0x184d2a5d;
const BLOCK_MAX = 128 << 10;

const u32 = (b: Uint8Array, at: number) =>
  (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;

/** A zstd frame or a skippable frame opens the file. */
export const isZstd = (head: Uint8Array): boolean =>
  head.length >= 4 && (u32(head, 0) === MAGIC || (u32(head, 0) & 0xfffffff0) === SKIPPABLE);

/** The window a frame header asks for, in bytes, from its Window_Descriptor. */
function windowOf(descriptor: number): number {
  const base = 2 ** (10 + (descriptor >> 3));
  return base + (base / 8) * (descriptor & 7);
}

/** The smallest Window_Descriptor whose window holds `size` bytes. */
function descriptorFor(size: number): number {
  for (let e = 0; e < 32; e++)
    for (let m = 0; m < 8; m++) if (windowOf((e << 3) | m) >= size) return (e << 3) | m;
  return 0xff;
}

type State = 'magic' | 'blocks' | 'checksum' | 'skip' | 'dictionary' | 'resync';

export class ZstdFrames {
  private buf = new Uint8Array(1 << 16);
  private start = 0;
  private end = 0;
  /** Absolute offset of buf[0] in the file. */
  private base: number;
  private state: State = 'magic';
  private frameStart = 0;
  private toSkip = 0;
  private checksum = false;
  private dec: Decompress | null = null;
  /** The file's dictionary (the WARC zstd layout's first frame), once read; its frames are decoded with it. */
  private dictionary: Uint8Array | null = null;
  /** A frame decoded with the dictionary: its bytes, gathered whole (a record's frame). */
  private collected: Uint8Array[] | null = null;
  frames = 0;
  /** What the frame's header states it holds and is not yet decoded (Infinity: not stated). */
  private remaining = Infinity;
  /** A damaged span being read past (with onSkip): where it began and why. */
  private skipping: { from: number; reason: string } | null = null;
  /** An exception the sink threw (the reader's own fault, passed on as it is, never read past). */
  private sinkFault: unknown = null;

  constructor(
    private readonly sink: MemberSink,
    offsetBase = 0,
    /**
     * With it, damage does not end the read: after a frame that cannot be decoded or bytes that are no
     * frame, reading resumes at the next frame magic whose frame header reads (as MultiGunzip does for
     * gzip members); each span skipped is reported when the next frame begins. Without it, a fault.
     */
    private readonly onSkip?: SkipSink,
  ) {
    this.base = offsetBase;
  }

  private emitData(data: Uint8Array, at: number): void {
    try {
      this.sink(data, at);
    } catch (e) {
      this.sinkFault = e;
      throw e;
    }
  }

  /** One step, damage read past when onSkip is given (never the sink's own faults). */
  private async stepOrSkip(): Promise<boolean> {
    try {
      return await this.step();
    } catch (e) {
      // Damage is read past; a frame this reader refuses (a window or dictionary past its budget, a
      // dictionary the file lacks) is not damage, and stays a fault.
      if (!this.onSkip || e === this.sinkFault || !DAMAGE.has(e as object)) throw e;
      // The bad frame's start, or the bytes that are no frame.
      const at = this.state === 'magic' ? this.offset : this.frameStart;
      this.skipping ??= { from: at, reason: (e as FormatFault).message };
      const from = this.state === 'magic' ? this.start + 1 : this.start;
      this.dec = null;
      this.collected = null;
      this.state = 'resync';
      this.start = Math.min(from, this.end);
      return true;
    }
  }

  /** Looks for the next frame magic past damage; false when none is in hand yet (the last 3 bytes kept). */
  private resync(): boolean {
    for (let i = this.start; i + 4 <= this.end; i++)
      if (
        this.buf[i] === 0x28 &&
        this.buf[i + 1] === 0xb5 &&
        this.buf[i + 2] === 0x2f &&
        this.buf[i + 3] === 0xfd
      ) {
        this.start = i;
        this.state = 'magic';
        return true;
      }
    this.start = Math.max(this.start, this.end - 3);
    return false;
  }

  /** The damaged span ends where a frame begins (or the file ends): reported before its data. */
  private closeSkip(to: number): void {
    const s = this.skipping;
    if (!s) return;
    this.skipping = null;
    this.onSkip?.(s.from, to, s.reason, 0);
  }

  private get available(): number {
    return this.end - this.start;
  }

  private at(k: number): number {
    return this.buf[this.start + k];
  }

  private consume(n: number): Uint8Array {
    const out = this.buf.subarray(this.start, this.start + n);
    this.start += n;
    return out;
  }

  private get offset(): number {
    return this.base + this.start;
  }

  private append(chunk: Uint8Array): void {
    if (this.end + chunk.length > this.buf.length) {
      const live = this.end - this.start;
      if (live + chunk.length <= this.buf.length) this.buf.copyWithin(0, this.start, this.end);
      else {
        const next = new Uint8Array(Math.max(2 * this.buf.length, live + chunk.length));
        next.set(this.buf.subarray(this.start, this.end));
        this.buf = next;
      }
      this.base += this.start;
      this.end = live;
      this.start = 0;
    }
    this.buf.set(chunk, this.end);
    this.end += chunk.length;
  }

  /** Frames' data to the sink as they are decoded; `final`: the file ends here. */
  async push(chunk: Uint8Array, final: boolean): Promise<void> {
    this.append(chunk);
    while (await this.stepOrSkip());
    if (final && this.state === 'resync') {
      this.start = this.end;
      this.state = 'magic';
      this.closeSkip(this.offset);
    }
    if (final && (this.available > 0 || this.state !== 'magic'))
      throw new FormatFault(
        this.state === 'skip'
          ? 'truncated zstd skippable frame: the file ends inside it'
          : this.state === 'magic'
            ? 'truncated zstd frame header: the file ends inside it'
            : `truncated zstd frame: the file ends inside the frame that starts at byte ${this.frameStart.toLocaleString('en-US')}`,
        { offset: this.state === 'magic' ? this.offset : this.frameStart },
      );
  }

  /** One step of the walk; false when it needs more bytes. */
  private async step(): Promise<boolean> {
    switch (this.state) {
      case 'dictionary':
        return this.dictionaryFrame();
      case 'resync':
        return this.resync();
      case 'skip': {
        const n = Math.min(this.toSkip, this.available);
        this.consume(n);
        this.toSkip -= n;
        if (this.toSkip > 0) return false;
        this.state = 'magic';
        return true;
      }
      case 'magic':
        return this.frameHeader();
      case 'blocks':
        return this.block();
      case 'checksum': {
        if (this.available < 4) return false;
        const sum = this.consume(4).slice();
        if (this.collected) this.collected.push(sum);
        else this.dec!.push(sum, true);
        this.endFrame();
        return true;
      }
    }
  }

  private frameHeader(): boolean {
    if (this.available < 4) return false;
    const magic = u32(this.buf, this.start);
    if ((magic & 0xfffffff0) === SKIPPABLE) {
      if (this.available < 8) return false;
      const length = u32(this.buf, this.start + 4);
      this.frameStart = this.offset;
      this.toSkip = length;
      if (magic === DICTIONARY_FRAME && this.frames === 0 && !this.dictionary) {
        if (length > BUDGET.zstdDictionary)
          throw new FormatFault(
            `a zstd dictionary of ${mib(length)}: over the ${mib(BUDGET.zstdDictionary)} this reader keeps`,
            { offset: this.offset },
          );
        this.consume(8);
        this.state = 'dictionary';
        return true;
      }
      this.consume(8);
      this.state = 'skip';
      return true;
    }
    if (magic !== MAGIC)
      throw damage(
        `${this.frames === 0 ? 'not a zstd frame' : 'bytes after a zstd frame that are not a frame'} (they start ${hex(this.buf.subarray(this.start, this.start + 4))})`,
        { offset: this.offset },
      );
    if (this.available < 6) return false;
    const d = this.at(4);
    const singleSegment = (d >> 5) & 1;
    const dictBytes = [0, 1, 2, 4][d & 3];
    const fcsFlag = d >> 6;
    const fcsBytes = fcsFlag ? 1 << fcsFlag : singleSegment;
    if (d & 8) throw damage('a zstd frame header with its reserved bit set', { offset: this.offset });
    const headerLength = 5 + (singleSegment ? 0 : 1) + dictBytes + fcsBytes;
    if (this.available < headerLength) return false;
    let k = 5 + (singleSegment ? 0 : 1);
    let dictionary = 0;
    for (let i = 0; i < dictBytes; i++) dictionary += this.at(k + i) * 2 ** (8 * i);
    k += dictBytes;
    let contentSize = 0;
    for (let i = 0; i < fcsBytes; i++) contentSize += this.at(k + i) * 2 ** (8 * i);
    if (fcsFlag === 1) contentSize += 256;
    this.remaining = fcsBytes > 0 ? contentSize : Infinity;
    if (dictionary !== 0 && !this.dictionary)
      throw new FormatFault(
        `a zstd frame made with dictionary ${dictionary}, which the file does not hold (the WARC zstd layout puts it in its first frame): decompress it with its dictionary first (zstd -d -D)`,
        { offset: this.offset },
      );
    if (this.dictionary) {
      // With the file's dictionary: the frame is gathered whole and decoded by zstd itself (dictDecode),
      // which needs its content size, at most a record's budget.
      if (fcsBytes === 0 || contentSize > BUDGET.recordBytes)
        throw new FormatFault(
          fcsBytes === 0
            ? 'a zstd frame made with the dictionary that does not state its size'
            : `a zstd frame made with the dictionary of ${mib(contentSize)}: over the ${mib(BUDGET.recordBytes)} record budget`,
          { offset: this.offset },
        );
      this.frameStart = this.offset;
      this.closeSkip(this.frameStart);
      this.collected = [this.consume(headerLength).slice()];
      this.checksum = ((d >> 2) & 1) === 1;
      this.state = 'blocks';
      return true;
    }
    const window = singleSegment ? contentSize : windowOf(this.at(5));
    if (window > BUDGET.zstdWindow)
      throw new FormatFault(
        `a zstd frame whose window is ${mib(window)} (made with --long or --ultra): over the ${mib(BUDGET.zstdWindow)} this reader keeps; decompress it first (zstd -d)`,
        { offset: this.offset },
      );
    // The header fzstd sees: no content size (it would allocate it whole), the window kept or made.
    const checksum = (d >> 2) & 1;
    const header = new Uint8Array([
      0x28,
      0xb5,
      0x2f,
      0xfd,
      checksum << 2,
      singleSegment ? descriptorFor(Math.max(1, contentSize)) : this.at(5),
    ]);
    this.frameStart = this.offset;
    this.closeSkip(this.frameStart);
    this.consume(headerLength);
    this.checksum = checksum === 1;
    const frameStart = this.frameStart;
    this.dec = new Decompress((data) => {
      if (data.length > 0) this.emitData(data, frameStart);
    });
    this.dec.push(header);
    this.state = 'blocks';
    return true;
  }

  private block(): boolean {
    if (this.available < 3) return false;
    const h = this.at(0) | (this.at(1) << 8) | (this.at(2) << 16);
    const last = h & 1;
    const type = (h >> 1) & 3;
    const size = h >>> 3;
    if (type === 3) throw damage('a zstd block of the reserved type', { offset: this.offset });
    if (size > BLOCK_MAX)
      throw damage(`a zstd block of ${size.toLocaleString('en-US')} bytes (at most 128 KiB)`, {
        offset: this.offset,
      });
    // Raw and RLE blocks decode to `size` bytes: more than the frame states it holds is damage (a frame
    // cut short, whose last block runs into the next frame).
    if (type !== 2 && size > this.remaining)
      throw damage(
        `a zstd block of ${size.toLocaleString('en-US')} bytes where its frame has ${this.remaining.toLocaleString('en-US')} left (a frame cut short?)`,
        { offset: this.offset },
      );
    const length = 3 + (type === 1 ? 1 : size);
    if (this.available < length) return false;
    // A compressed block's size once decoded is not known here: from it on, not checked.
    this.remaining = type === 2 ? Infinity : this.remaining - size;
    // A copy: fzstd may keep a reference to what it is given while the buffer here moves on.
    const bytes = this.consume(length).slice();
    if (this.collected) {
      this.collected.push(bytes);
      if (last) {
        if (this.checksum) this.state = 'checksum';
        else this.endFrame();
      }
      return true;
    }
    try {
      this.dec!.push(bytes, last === 1 && !this.checksum);
    } catch (e) {
      if (e === this.sinkFault) throw e;
      throw damage(`a zstd frame that cannot be decoded (${(e as Error).message})`, {
        offset: this.frameStart,
      });
    }
    if (last) {
      if (this.checksum) this.state = 'checksum';
      else this.endFrame();
    }
    return true;
  }

  private endFrame(): void {
    if (this.collected) {
      const frame = concat(this.collected);
      this.collected = null;
      let data: Uint8Array;
      try {
        data = dictDecode(frame, this.dictionary!);
      } catch (e) {
        throw damage(
          `a zstd frame that cannot be decoded with the file's dictionary (${(e as Error).message})`,
          {
            offset: this.frameStart,
          },
        );
      }
      if (data.length > 0) this.emitData(data, this.frameStart);
    }
    this.dec = null;
    this.frames++;
    this.state = 'magic';
  }

  /**
   * The dictionary frame's content, then the dictionary: as it is, or zstd-compressed itself (the WARC
   * zstd layout allows both), decoded here by the same walk, bounded by the same budget.
   */
  private async dictionaryFrame(): Promise<boolean> {
    if (this.available < this.toSkip) return false;
    const content = this.consume(this.toSkip).slice();
    this.toSkip = 0;
    let dictionary: Uint8Array = content;
    if (isZstd(content)) {
      const parts: Uint8Array[] = [];
      let size = 0;
      const inner = new ZstdFrames((d) => {
        size += d.length;
        if (size > BUDGET.zstdDictionary)
          throw new FormatFault(`a zstd dictionary past ${mib(BUDGET.zstdDictionary)} once decompressed`, {
            offset: this.frameStart,
          });
        parts.push(d.slice());
      });
      await inner.push(content, true);
      dictionary = concat(parts);
    }
    await dictReady();
    this.dictionary = dictionary;
    this.state = 'magic';
    return true;
  }
}

/** Faults of damaged data (read past with onSkip), apart from refusals. */
const DAMAGE = new WeakSet<object>();
function damage(reason: string, where: { offset: number }): FormatFault {
  const f = new FormatFault(reason, where);
  DAMAGE.add(f);
  return f;
}

function hex(b: Uint8Array): string {
  return [...b].map((x) => x.toString(16).padStart(2, '0')).join(' ');
}

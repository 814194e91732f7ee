/**
 * The extractor proper (extract.ts is its entry points): what a tokenizer's events — from the scanner
 * of scan.ts, or htmlparser2's Tokenizer for the pages the scanner leaves to it — mean for a page's
 * title, visible text, link values and template hints.
 */
import { foldSpaces, NOT_PRE, tidyText, WS } from '../text/tidy';
import { detached } from '../text/detached';
import type { ExtractedBody } from './extracted';
import { NextIndex, type HtmlSink } from './scan';
import {
  F_BLOCK,
  F_CELL,
  F_CONTENT,
  F_HIDDEN,
  F_HINT,
  F_HINT_OUTSIDE,
  F_PRE,
  KIND,
  LINK_ATTR,
} from './elements';

/** The extractor proper: what both tokenizers' events mean for title, text, links and hints. */
export class Extraction implements HtmlSink {
  private readonly parts: string[] = [];
  private hidden = 0;
  private inTitle = false;
  private title = '';
  /** The first non-empty <base href> (only the first counts). */
  private baseHref: string | null = null;
  private readonly raw: string[] = [];
  private tag = '';
  private link: string | null = null;
  // Template hint depth (nav, aside; header and footer outside article/main) and content depth.
  private readonly hintParts: string[] = [];
  private hint = 0;
  private content = 0;
  private readonly hintStack: boolean[] = [];
  private pre = 0;

  // Where the page's next line breaks are: a piece of text without one needs no regex.
  private readonly lineFeeds: NextIndex;
  private readonly carriageReturns: NextIndex;

  /**
   * Tidy mode (extractHtmlTidy): the white space read since the last word, as WS classes (0 none,
   * bit 4 a line break among it), and whether a word was kept yet (white space before the first
   * word goes, as does the white space after the last, which is never followed by a word).
   */
  private pending = 0;
  private started = false;

  constructor(
    private readonly html: string,
    private readonly tidy = false,
  ) {
    this.lineFeeds = new NextIndex(html, '\n');
    this.carriageReturns = new NextIndex(html, '\r');
  }

  /**
   * Pieces of one or two characters (block breaks, line breaks as spaces, the white space between
   * tags: most pieces on docsite) gathered into one short string before they go to `parts`, kept
   * under 13 characters so V8 copies it flat: joining costs per piece more than per character
   * (docsite: extraction 260 → 210 ms with it).
   */
  private tail = '';

  private push(s: string): void {
    if (s.length <= 2) {
      this.tail += s;
      if (this.tail.length >= 10) {
        this.parts.push(this.tail);
        this.tail = '';
      }
    } else {
      if (this.tail !== '') {
        this.parts.push(this.tail);
        this.tail = '';
      }
      this.parts.push(s);
    }
    if (this.hint > 0) this.hintParts.push(s);
  }

  openTag(name: string): string {
    this.tag = name;
    this.link = null;
    return LINK_ATTR.get(name) ?? '';
  }

  attribute(value: string): void {
    if (this.link === null) this.link = value;
  }

  openEnd(): void {
    const tag = this.tag;
    const kind = KIND.get(tag) ?? 0;
    if (kind !== 0) {
      if (kind & F_PRE) this.pre++;
      if (kind & F_CONTENT) this.content++;
      if (kind & (F_HINT | F_HINT_OUTSIDE)) {
        const h = (kind & F_HINT) !== 0 || this.content === 0;
        this.hintStack.push(h);
        if (h) this.hint++;
      }
    }
    if (tag === 'title' && this.title === '') this.inTitle = true;
    else if (kind & F_HIDDEN) this.hidden++;
    if (kind & F_BLOCK) this.pushSpace('\n');
    else if (kind & F_CELL) this.pushSpace(' ');
    const link = this.link;
    if (link !== null && link !== '') {
      if (tag === 'base') this.baseHref ??= link;
      else this.raw.push(link);
    }
  }

  closeTag(name: string): void {
    const kind = KIND.get(name) ?? 0;
    if (kind & F_PRE && this.pre > 0) this.pre--;
    if (name === 'title') this.inTitle = false;
    else if (kind & F_HIDDEN && this.hidden > 0) this.hidden--;
    if (kind & F_BLOCK) this.pushSpace('\n');
    if (kind & F_CONTENT && this.content > 0) this.content--;
    if (kind & (F_HINT | F_HINT_OUTSIDE) && this.hintStack.length > 0) {
      if (this.hintStack.pop()) this.hint--;
    }
  }

  /** A block break ('\n') or a cell's space. */
  private pushSpace(s: '\n' | ' '): void {
    if (!this.tidy) this.push(s);
    else {
      this.pending |= s === '\n' ? 1 | 4 : 1;
      if (this.hint > 0) this.hintParts.push(s);
    }
  }

  /**
   * Tidy mode: `str` from `start` to `end` as tidyText would leave it in the page's text, given the
   * white space pending before it — stretches of words one tidy separator apart kept as slices, any
   * other white space folded into `pending`, to become one separator before the next word. The
   * loop is tidyText's (WS classes; `classes` NOT_PRE reads \r and \n as spaces, as text outside
   * preformatted elements reads them).
   */
  private tidyPiece(str: string, start: number, end: number, classes: Uint8Array): void {
    let i = start;
    let pending = this.pending;
    let t: number;
    while (i < end && (t = classes[str.charCodeAt(i)]) !== 0) {
      pending |= t;
      i++;
    }
    if (i === end) {
      this.pending = pending;
      return;
    }
    const parts = this.parts;
    if (this.started) {
      if (pending !== 0) parts.push(pending & 4 ? '\n' : ' ');
    } else this.started = true;
    let keep = i;
    let prev = 0;
    for (i++; i < end; i++) {
      const t = classes[str.charCodeAt(i)];
      if (((t & 2) | (t & prev & 1)) === 0) {
        prev = t;
        continue;
      }
      const runStart = prev & 1 ? i - 1 : i;
      let lines = t | (runStart < i ? prev : 0);
      let j = i + 1;
      let u: number;
      while (j < end && (u = classes[str.charCodeAt(j)]) !== 0) {
        lines |= u;
        j++;
      }
      parts.push(str.slice(keep, runStart));
      if (j === end) {
        this.pending = lines;
        return;
      }
      parts.push(lines & 4 ? '\n' : ' ');
      keep = j;
      i = j;
      prev = 0;
    }
    // A single tidy separator at the end is pending: only a word after it keeps it.
    if (prev & 1) {
      parts.push(str.slice(keep, end - 1));
      this.pending = prev;
    } else {
      parts.push(keep === 0 && end === str.length ? str : str.slice(keep, end));
      this.pending = 0;
    }
  }

  textRange(start: number, end: number): void {
    const html = this.html;
    if (this.inTitle) this.title += html.slice(start, end);
    else if (this.hidden === 0 && this.tidy) {
      const pre = this.pre > 0;
      this.tidyPiece(html, start, end, pre ? WS : NOT_PRE);
      if (this.hint > 0) {
        const piece = html.slice(start, end);
        this.hintParts.push(pre ? piece : piece.replace(/[\r\n]+/g, ' '));
      }
    } else if (this.hidden === 0) {
      if (this.pre > 0) {
        this.push(html.slice(start, end));
        return;
      }
      // Source line breaks are white space, not text line breaks, except in preformatted text:
      // `html.slice(start, end).replace(/[\r\n]+/g, ' ')` as pieces, the runs of line breaks found
      // with the page's NextIndex — no regex call and no copy per piece (which were a third of
      // extraction on docsite, where most pieces have a line break).
      let p = start;
      while (p < end) {
        const lf = this.lineFeeds.of(p);
        const cr = this.carriageReturns.of(p);
        const br = lf < cr ? lf : cr;
        if (br >= end) {
          this.push(html.slice(p, end));
          return;
        }
        if (br > p) this.push(html.slice(p, br));
        this.push(' ');
        p = br + 1;
        let c: number;
        while (p < end && ((c = html.charCodeAt(p)) === 10 || c === 13)) p++;
      }
    }
  }

  text(s: string): void {
    if (this.inTitle) this.title += s;
    else if (this.hidden === 0) {
      const piece = this.pre > 0 ? s : s.replace(/[\r\n]+/g, ' ');
      if (!this.tidy) this.push(piece);
      else {
        this.tidyPiece(piece, 0, piece.length, WS);
        if (this.hint > 0) this.hintParts.push(piece);
      }
    }
  }

  /** The text: one flat string (tidyText's and fingerprint64's loops run at half speed once they have seen a rope). */
  private joined(): string {
    if (this.tail !== '') this.parts.push(this.tail);
    this.tail = '';
    return this.parts.length === 1 ? detached(this.parts[0]) : this.parts.join('');
  }

  /** What the page gives whatever its URL (pageLinks resolves its links). */
  body(): ExtractedBody {
    const { hintParts } = this;
    const templateHints = hintParts.length ? tidyText(hintParts.join('')).split('\n') : [];
    return {
      title: detached(foldSpaces(this.title)),
      text: this.joined(),
      raw: this.raw,
      baseHref: this.baseHref,
      templateHints,
    };
  }
}

import { DecodingMode, EntityDecoder, htmlDecodeTree } from 'entities/decode';

/**
 * What a tokenizer of HTML tells the text extractor (src/core/html/extraction.ts): the same events
 * from this scanner and from htmlparser2's Tokenizer, so both paths share one extractor.
 */
export interface HtmlSink {
  /** An open tag's name, lower-cased; returns the name of the attribute whose value is wanted ('' none). */
  openTag(name: string): string;
  /** The decoded value of the first attribute named as `openTag` asked ('' when it has no value). */
  attribute(value: string): void;
  /** The end of the open tag (`>` or `/>`). */
  openEnd(): void;
  closeTag(name: string): void;
  /**
   * Text of the page from `start` to `end`: split exactly where the Tokenizer splits it (before a
   * `<`, around each character reference), as the pieces are tidied one by one.
   */
  textRange(start: number, end: number): void;
  /** The text of a character reference (one call per code point, as the Tokenizer). */
  text(s: string): void;
}

/**
 * How the Tokenizer (htmlparser2 v12, Tokenizer.js `specialStartSequences`) reads an element's
 * content: RAW text up to `</name` (no entities), RCDATA (entities decoded), PLAINTEXT to the end.
 */
const RAW = 1;
const RCDATA = 2;
const PLAINTEXT = 3;
const SPECIAL = new Map<string, number>([
  ['script', RAW],
  ['style', RAW],
  ['iframe', RAW],
  ['xmp', RAW],
  ['noembed', RAW],
  ['noframes', RAW],
  ['title', RCDATA],
  ['textarea', RCDATA],
  ['plaintext', PLAINTEXT],
]);

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const AMP = 0x26;
const EQ = 0x3d;
const BANG = 0x21;
const QUESTION = 0x3f;
const DASH = 0x2d;
const DQ = 0x22;
const SQ = 0x27;

/** The Tokenizer's white space: no \v, no non-ASCII space. */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d;
}
/** What ends a tag or attribute name (Tokenizer `isEndOfTagSection`). */
function endsName(c: number): boolean {
  return c === SLASH || c === GT || isSpace(c);
}
function isAlpha(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

/**
 * `s.indexOf(ch, pos)` (s.length when none) for positions that mostly grow, as the scanner and the
 * extractor ask: the last answer holds for every position from the last question up to it, so a
 * page is searched about once, not once per piece of text and to its end when it has no `ch`.
 */
export class NextIndex {
  private from = 0;
  private at = -1;

  constructor(
    private readonly s: string,
    private readonly ch: string,
  ) {}

  of(pos: number): number {
    if (this.from > pos || this.at < pos) {
      this.from = pos;
      const i = this.s.indexOf(this.ch, pos);
      this.at = i < 0 ? this.s.length : i;
    }
    return this.at;
  }
}

/** Thrown (and caught in scanHtml) when the scanner meets input it does not reproduce exactly. */
const GIVE_UP = new Error('scan: not on the fast path');

// One decoder for all pages, as the Tokenizer has one: `entities` decodes a character reference
// starting at an offset of the whole string, so the legacy rules (no `;`, the attribute-mode look at
// the next character) see exactly what the Tokenizer's decoder sees.
let decoded: number[] = [];
let decodedLength = 0;
const decoder = new EntityDecoder(htmlDecodeTree, (cp, consumed) => {
  decoded.push(cp);
  decodedLength = consumed;
});

/**
 * Decode the character reference at `amp` (an `&`): the number of characters it takes, 0 when it is
 * none (the `&` is then text), its code points in `decoded`. The end of input inside a reference is
 * left to the Tokenizer (its `end()` rules).
 */
function entityAt(html: string, amp: number, mode: DecodingMode): number {
  decoded = [];
  decodedLength = 0;
  decoder.startEntity(mode);
  const n = decoder.write(html, amp + 1);
  if (n < 0) throw GIVE_UP;
  return n === 0 ? 0 : decodedLength;
}

/**
 * Tokenize `html` as htmlparser2 v12's Tokenizer does in HTML mode with entities decoded, and tell
 * `sink` what it would tell the extractor — without a callback per character: text runs are found
 * with indexOf, tags are read with charCodeAt. Returns false, having told `sink` only part of the
 * page, when the page has something this scanner does not reproduce exactly (CDATA sections,
 * <plaintext>, any construct cut by the end of input, a character reference at the very end, U+000F
 * or U+001C in raw text or RCDATA, which the Tokenizer's case-folding `c | 0x20` reads as '/' and
 * '<' when it looks for the end tag there); the
 * caller then runs the Tokenizer on a fresh sink. test/core/html/scan.test.ts checks the two agree.
 */
export function scanHtml(html: string, sink: HtmlSink): boolean {
  try {
    new Scanner(html, sink).run();
    return true;
  } catch (e) {
    if (e === GIVE_UP) return false;
    throw e;
  }
}

class Scanner {
  private readonly n: number;
  /** Where the text not yet told to the sink starts. */
  private section = 0;
  /** Where the next '&' is. */
  private readonly amps: NextIndex;
  /** Where the next U+000F and U+001C are, once there is raw text. */
  private controls: NextIndex[] | undefined;

  constructor(
    private readonly html: string,
    private readonly sink: HtmlSink,
  ) {
    this.n = html.length;
    this.amps = new NextIndex(html, '&');
  }

  run(): void {
    const { html, n } = this;
    let i = 0;
    for (;;) {
      const lt = html.indexOf('<', i);
      if (lt < 0) {
        this.flushText(n);
        return;
      }
      if (lt + 1 >= n) throw GIVE_UP; // a '<' at the end: the Tokenizer's trailing-data rules
      const c = html.charCodeAt(lt + 1);
      if (isAlpha(c)) {
        this.flushText(lt);
        i = this.openTag(lt);
      } else if (c === SLASH) {
        this.flushText(lt);
        i = this.closeTag(lt);
      } else if (c === BANG) {
        this.flushText(lt);
        i = this.declaration(lt);
      } else if (c === QUESTION) {
        // HTML mode: a bogus comment up to the next '>'.
        this.flushText(lt);
        i = this.through('>', lt + 2);
      } else {
        // Not a tag: the '<' is text. The Tokenizer still ends the text before it (it only knows
        // at the next character), and that split is kept so the sink sees the same pieces.
        this.flushText(lt);
        this.section = lt;
        i = lt + 1;
        continue;
      }
      this.section = i;
    }
  }

  /** The position after the first `s` at or after `from`; no end: give up. */
  private through(s: string, from: number): number {
    const at = this.html.indexOf(s, from);
    if (at < 0) throw GIVE_UP;
    return at + s.length;
  }

  private charAt(i: number): number {
    if (i >= this.n) throw GIVE_UP;
    return this.html.charCodeAt(i);
  }

  /** Text from `section` to `end`, character references decoded (text mode: legacy references). */
  private flushText(end: number): void {
    let start = this.section;
    if (start >= end) return;
    const { html, sink } = this;
    let amp = this.amps.of(start);
    while (amp < end) {
      const len = entityAt(html, amp, DecodingMode.Legacy);
      if (len > 0) {
        if (start < amp) sink.textRange(start, amp);
        for (const cp of decoded) sink.text(String.fromCodePoint(cp));
        start = amp + len;
      }
      amp = this.amps.of(len > 0 ? start : amp + 1);
    }
    if (start < end) sink.textRange(start, end);
  }

  /** `<` + letter at `lt`: name, attributes, then the content of raw-text elements. */
  private openTag(lt: number): number {
    const { html, sink } = this;
    let k = lt + 2;
    while (!endsName(this.charAt(k))) k++;
    const name = html.slice(lt + 1, k).toLowerCase();
    const wanted = sink.openTag(name);
    let found = wanted === '';
    for (;;) {
      // Before an attribute name.
      let c = this.charAt(k);
      if (c === GT) break;
      if (c === SLASH) {
        // `/` then spaces then `>` is `/>` (HTML: an open tag all the same); anything else starts
        // an attribute name.
        k++;
        while (isSpace((c = this.charAt(k)))) k++;
        if (c === GT) break;
        continue;
      }
      if (isSpace(c)) {
        k++;
        continue;
      }
      // An attribute name: its first character may be anything that is not a name end ('=' too).
      const nameStart = k;
      k++;
      while ((c = this.charAt(k)) !== EQ && !endsName(c)) k++;
      const nameEnd = k;
      while (isSpace(c)) c = this.charAt(++k);
      let valueStart = -1;
      let valueEnd = -1;
      if (c === EQ) {
        k++;
        while (isSpace((c = this.charAt(k)))) k++;
        if (c === DQ || c === SQ) {
          valueStart = k + 1;
          valueEnd = html.indexOf(c === DQ ? '"' : "'", valueStart);
          if (valueEnd < 0) throw GIVE_UP;
          k = valueEnd + 1;
        } else {
          // Unquoted: up to white space or '>' ('/' and quotes are part of the value).
          valueStart = k;
          while (!isSpace((c = this.charAt(k))) && c !== GT) k++;
          valueEnd = k;
        }
      }
      // Else no value: the next '/', '>' or name is read from `k` on. The length test first:
      // lower-casing changes the length only of U+0130, which no wanted name ('href', 'src') holds.
      if (
        !found &&
        nameEnd - nameStart === wanted.length &&
        html.slice(nameStart, nameEnd).toLowerCase() === wanted
      ) {
        found = true;
        sink.attribute(valueStart < 0 ? '' : this.attributeValue(valueStart, valueEnd));
      }
    }
    sink.openEnd();
    const after = k + 1;
    const special = SPECIAL.get(name);
    if (special === undefined) return after;
    if (special === PLAINTEXT) throw GIVE_UP;
    return special === RAW ? this.rawText(after, name) : this.rcdata(after, name);
  }

  /** An attribute value with character references decoded (attribute mode). */
  private attributeValue(start: number, end: number): string {
    const { html } = this;
    let amp = this.amps.of(start);
    if (amp >= end) return html.slice(start, end);
    let out = '';
    while (amp < end) {
      const len = entityAt(html, amp, DecodingMode.Attribute);
      if (len > 0) {
        out += html.slice(start, amp);
        for (const cp of decoded) out += String.fromCodePoint(cp);
        start = amp + len;
      }
      amp = this.amps.of(len > 0 ? start : amp + 1);
    }
    return out + html.slice(start, end);
  }

  /**
   * Where `</name` followed by a name end starts, at or after `from`, letters compared
   * case-insensitively. Only a '<' can start a match (the sequence has no other '<'), so trying
   * every '<' in turn is what the Tokenizer's sequence matcher does.
   */
  private endTagAt(from: number, name: string): number {
    const { html } = this;
    const len = name.length;
    for (let p = html.indexOf('<', from); ; p = html.indexOf('<', p + 1)) {
      if (p < 0) throw GIVE_UP;
      if (this.charAt(p + 1) !== SLASH) continue;
      let j = 0;
      while (j < len && (this.charAt(p + 2 + j) | 0x20) === name.charCodeAt(j)) j++;
      if (j === len && endsName(this.charAt(p + 2 + len))) return p;
    }
  }

  /** script, style, iframe, xmp, noembed, noframes: text up to the end tag, no references. */
  private rawText(start: number, name: string): number {
    const p = this.endTagAt(start, name);
    // A U+000F or U+001C before the end tag might have made an earlier one for the Tokenizer.
    if (
      (this.controls ??= [new NextIndex(this.html, '\x0f'), new NextIndex(this.html, '\x1c')]).some(
        (x) => x.of(start) < p,
      )
    )
      throw GIVE_UP;
    if (start < p) this.sink.textRange(start, p);
    return this.endTag(p, name);
  }

  /**
   * The end tag of `name` at `p`: tell it, skip to after its '>'. Its letters matched `name` but for
   * ASCII case, so `name` is what lower-casing them gives.
   */
  private endTag(p: number, name: string): number {
    this.sink.closeTag(name);
    return this.through('>', p + 2 + name.length);
  }

  /**
   * title, textarea: text with references up to the end tag. Character by character, as the
   * Tokenizer's sequence matcher: an '&' starts a reference only when no `</name` match is under way
   * (`a<&amp;` keeps `&amp;` as it is). Titles are short.
   */
  private rcdata(start: number, name: string): number {
    const { html, sink } = this;
    const seqLength = name.length + 2;
    const seqAt = (j: number) => (j === 0 ? LT : j === 1 ? SLASH : name.charCodeAt(j - 2));
    let section = start;
    let seq = 0;
    let i = start;
    for (;;) {
      const c = this.charAt(i);
      if (c === 0x0f || c === 0x1c) throw GIVE_UP; // see rawText
      if (seq === seqLength) {
        if (endsName(c)) {
          const p = i - seqLength;
          if (section < p) sink.textRange(section, p);
          return this.endTag(p, name);
        }
        seq = 0;
      }
      if ((c | 0x20) === seqAt(seq)) seq++;
      else if (seq === 0) {
        if (c === AMP) {
          const len = entityAt(html, i, DecodingMode.Legacy);
          if (len > 0) {
            if (section < i) sink.textRange(section, i);
            for (const cp of decoded) sink.text(String.fromCodePoint(cp));
            section = i + len;
            i = section;
            continue;
          }
        }
      } else seq = c === LT ? 1 : 0;
      i++;
    }
  }

  /** `</` at `lt`: an end tag, `</>` (nothing), or a bogus comment up to the next '>'. */
  private closeTag(lt: number): number {
    const c = this.charAt(lt + 2);
    if (c === GT) return lt + 3;
    if (!isAlpha(c)) return this.through('>', lt + 2);
    let k = lt + 3;
    while (!endsName(this.charAt(k))) k++;
    this.sink.closeTag(this.html.slice(lt + 2, k).toLowerCase());
    // The rest of an end tag up to the first '>' is skipped, quotes or not.
    return this.through('>', k);
  }

  /** `<!` at `lt`: a comment, or a doctype or bogus comment up to the next '>'. */
  private declaration(lt: number): number {
    const c = this.charAt(lt + 2);
    if (c === 0x5b) throw GIVE_UP; // '[': CDATA (a bogus comment in HTML) — rare, left to the Tokenizer
    if (c !== DASH) return this.through('>', lt + 2);
    const d = this.charAt(lt + 3);
    if (d === GT) return lt + 4; // <!->
    if (d !== DASH) return this.through('>', lt + 3);
    // A comment: `<!-->` and `<!--->` end at once; otherwise at the first `-->` or `--!>`, that is
    // after the first run of two or more dashes followed by '>' or '!>' (two indexOf calls, one of
    // them for `--!>` that pages never have, would search to the end of the page for each comment).
    const s = lt + 4;
    const e = this.charAt(s);
    if (e === GT) return s + 1;
    if (e === DASH && this.charAt(s + 1) === GT) return s + 2;
    for (let p = this.html.indexOf('--', s); p >= 0; p = this.html.indexOf('--', p)) {
      p += 2;
      let c: number;
      while ((c = this.charAt(p)) === DASH) p++;
      if (c === GT) return p + 1;
      if (c === BANG && this.charAt(p + 1) === GT) return p + 2;
    }
    throw GIVE_UP;
  }
}

// Encoders for legacy charsets that Node cannot encode natively. Each table is
// built by decoding every 1- or 2-byte sequence with the WHATWG TextDecoder and
// inverting the result; the output is verified by decoding it again.

export type LegacyCharset = 'gbk' | 'gb18030' | 'big5' | 'shift_jis' | 'windows-1252';

type Table = Map<string, number[]>;

// WHATWG index-windows-1252 for bytes 0x80..0x9F (0 = maps to the C1 control).
const CP1252_80_9F = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0,
  0x017d, 0, 0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a,
  0x0153, 0, 0x017e, 0x0178,
];
const cache = new Map<string, Table>();

function addSequence(table: Table, decoder: TextDecoder, bytes: number[]): void {
  const s = decoder.decode(Uint8Array.from(bytes));
  // Keep only clean one-code-point results; the first sequence found wins.
  if (s.length === 0 || s.includes('\ufffd') || [...s].length !== 1 || table.has(s)) return;
  table.set(s, bytes);
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i <= to; i++) out.push(i);
  return out;
}

function buildTable(charset: LegacyCharset): Table {
  const label = charset === 'gb18030' ? 'gbk' : charset;
  const cached = cache.get(label);
  if (cached) return cached;
  const decoder = new TextDecoder(label);
  const table: Table = new Map();
  if (label === 'windows-1252') {
    // Node 20.18.3+ decodes 0x80-0x9F as C1 controls (nodejs/node#60888), so
    // that row comes from the WHATWG index instead of the decoder.
    CP1252_80_9F.forEach((cp, i) => {
      if (cp !== 0) table.set(String.fromCodePoint(cp), [0x80 + i]);
    });
    for (const b of range(0xa0, 0xff)) addSequence(table, decoder, [b]);
  } else if (label === 'gbk') {
    for (const lead of range(0x81, 0xfe))
      for (const trail of range(0x40, 0xfe)) if (trail !== 0x7f) addSequence(table, decoder, [lead, trail]);
  } else if (label === 'big5') {
    // Standard Big5 rows first, HKSCS extension rows (0x81-0xA0) last.
    for (const lead of [...range(0xa1, 0xfe), ...range(0x81, 0xa0)])
      for (const trail of [...range(0x40, 0x7e), ...range(0xa1, 0xfe)])
        addSequence(table, decoder, [lead, trail]);
  } else {
    for (const lead of [...range(0x81, 0x9f), ...range(0xe0, 0xfc)])
      for (const trail of [...range(0x40, 0x7e), ...range(0x80, 0xfc)])
        addSequence(table, decoder, [lead, trail]);
  }
  cache.set(label, table);
  return table;
}

/** GB18030 four-byte form for supplementary-plane code points (U+10000..). */
function gb18030Supplementary(cp: number): number[] {
  let linear = cp - 0x10000 + 189000;
  const b4 = linear % 10;
  linear = Math.floor(linear / 10);
  const b3 = linear % 126;
  linear = Math.floor(linear / 126);
  const b2 = linear % 10;
  const b1 = Math.floor(linear / 10);
  return [0x81 + b1, 0x30 + b2, 0x81 + b3, 0x30 + b4];
}

export function encodeLegacy(text: string, charset: LegacyCharset): Buffer {
  const table = buildTable(charset);
  const out: number[] = [];
  for (const ch of text) {
    const cp = ch.codePointAt(0) ?? 0;
    if (cp < 0x80) {
      out.push(cp);
      continue;
    }
    const seq = table.get(ch);
    if (seq) out.push(...seq);
    else if (charset === 'gb18030' && cp >= 0x10000) out.push(...gb18030Supplementary(cp));
    else throw new Error(`cannot encode U+${cp.toString(16).toUpperCase()} (${ch}) in ${charset}`);
  }
  const buf = Buffer.from(out);
  // Verify by decoding again (skipped for windows-1252: Node's decoder is wrong there).
  if (charset !== 'windows-1252' && new TextDecoder(charset).decode(buf) !== text) {
    throw new Error(`round-trip failed for ${charset}`);
  }
  return buf;
}

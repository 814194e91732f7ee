// CRC-32 (node 20 has no zlib.crc32) and a tiny valid PNG writer.

import { deflateSync, inflateSync } from 'node:zlib';

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

export function crc32(buf: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** A 1x1 8-bit RGB PNG of the given colour. */
export function tinyPng(r: number, g: number, b: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(1, 0); // width
  ihdr.writeUInt32BE(1, 4); // height
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  ihdr[10] = 0; // compression
  ihdr[11] = 0; // filter
  ihdr[12] = 0; // interlace
  const raw = Buffer.from([0, r, g, b]); // filter byte + one pixel
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A w × h 8-bit RGB PNG, each pixel's colour from `colour(x, y)`. */
export function rgbPng(
  w: number,
  h: number,
  colour: (x: number, y: number) => [number, number, number],
): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // colour type: RGB
  const raw = Buffer.alloc(h * (1 + 3 * w));
  for (let y = 0; y < h; y++) {
    const row = y * (1 + 3 * w); // filter byte 0 (none), then the row's pixels
    for (let x = 0; x < w; x++) raw.set(colour(x, y), row + 1 + 3 * x);
  }
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    sig,
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The pixels of an 8-bit RGB or RGBA PNG (not interlaced), as RGB: what Chromium's screenshots are. */
export function decodeRgb(png: Buffer): { w: number; h: number; rgb: Uint8Array } {
  let w = 0;
  let h = 0;
  let channels = 3;
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const len = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + len);
    if (type === 'IHDR') {
      [w, h] = [data.readUInt32BE(0), data.readUInt32BE(4)];
      if (data[8] !== 8 || (data[9] !== 2 && data[9] !== 6) || data[12] !== 0)
        throw new Error('only 8-bit RGB or RGBA PNGs, not interlaced, are read');
      channels = data[9] === 6 ? 4 : 3;
    } else if (type === 'IDAT') idat.push(data);
    at += 12 + len;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = w * channels;
  const rows = new Uint8Array(h * stride);
  for (let y = 0; y < h; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? rows[out + x - channels] : 0;
      const b = y > 0 ? rows[out - stride + x] : 0;
      const c = x >= channels && y > 0 ? rows[out - stride + x - channels] : 0;
      const p = a + b - c;
      const [pa, pb, pc] = [Math.abs(p - a), Math.abs(p - b), Math.abs(p - c)];
      const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      const add = [0, a, b, (a + b) >> 1, paeth][filter];
      rows[out + x] = (line[x] + add) & 255;
    }
  }
  if (channels === 3) return { w, h, rgb: rows };
  const rgb = new Uint8Array(w * h * 3);
  for (let i = 0, j = 0; i < rows.length; i += 4, j += 3) rgb.set(rows.subarray(i, i + 3), j);
  return { w, h, rgb };
}

/**
 * A screenshot as a PNG of at most 256 colours (median cut over its colours, weighted by how many pixels
 * have each; every pixel then takes the nearest): a UI's flat colours stay exact, the anti-aliased edges
 * of its text come close, and the file is a third of the size or less.
 */
export function palettePng(png: Buffer): Buffer {
  const { w, h, rgb } = decodeRgb(png);
  const counts = new Map<number, number>();
  for (let i = 0; i < rgb.length; i += 3) {
    const c = (rgb[i] << 16) | (rgb[i + 1] << 8) | rgb[i + 2];
    counts.set(c, (counts.get(c) ?? 0) + 1);
  }
  const channel = (c: number, k: number) => (c >> (16 - 8 * k)) & 255;
  // Median cut: split the box with the widest channel range (weighted by pixels) at its weighted median.
  let boxes: number[][] = [[...counts.keys()]];
  while (boxes.length < 256) {
    let best = -1;
    let bestScore = 0;
    let bestK = 0;
    boxes.forEach((box, i) => {
      if (box.length < 2) return;
      for (let k = 0; k < 3; k++) {
        let lo = 255;
        let hi = 0;
        let n = 0;
        for (const c of box) {
          lo = Math.min(lo, channel(c, k));
          hi = Math.max(hi, channel(c, k));
          n += counts.get(c)!;
        }
        const score = (hi - lo) * Math.sqrt(n);
        if (score > bestScore) [best, bestScore, bestK] = [i, score, k];
      }
    });
    if (best < 0) break;
    const box = boxes[best].sort((a, b) => channel(a, bestK) - channel(b, bestK));
    const total = box.reduce((s, c) => s + counts.get(c)!, 0);
    let cut = 0;
    for (let n = 0; cut < box.length - 1 && n + counts.get(box[cut])! <= total / 2; cut++)
      n += counts.get(box[cut])!;
    cut = Math.max(1, cut);
    boxes = [...boxes.slice(0, best), box.slice(0, cut), box.slice(cut), ...boxes.slice(best + 1)];
  }
  // Each box's colour: its most frequent one (a UI's flat colours stay exact).
  const palette = boxes.map((box) => box.reduce((a, b) => (counts.get(b)! > counts.get(a)! ? b : a)));
  const nearest = new Map<number, number>();
  for (const c of counts.keys()) {
    let best = 0;
    let bestD = Infinity;
    palette.forEach((p, i) => {
      const d = [0, 1, 2].reduce((s, k) => s + (channel(c, k) - channel(p, k)) ** 2, 0);
      if (d < bestD) [best, bestD] = [i, d];
    });
    nearest.set(c, best);
  }
  const raw = Buffer.alloc(h * (w + 1));
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const i = 3 * (y * w + x);
      raw[y * (w + 1) + 1 + x] = nearest.get((rgb[i] << 16) | (rgb[i + 1] << 8) | rgb[i + 2])!;
    }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 3; // colour type: indexed
  const plte = Buffer.alloc(3 * palette.length);
  palette.forEach((p, i) => plte.set([channel(p, 0), channel(p, 1), channel(p, 2)], 3 * i));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('PLTE', plte),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

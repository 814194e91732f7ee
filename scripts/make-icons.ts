// The app's icons (public/icons/icon-192.png, icon-512.png), drawn here so they are made by the
// project's own script: two overlapping pages, the second one outlined (a near-duplicate), on the
// workbench's blue; the drawing stays inside the middle 60% so a maskable crop keeps it. Run:
// npx tsx scripts/make-icons.ts (deterministic: the same bytes every run).

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { rgbPng } from './lib/png.ts';

const OUT = join(dirname(fileURLToPath(import.meta.url)), '..', 'public', 'icons');
const BLUE: [number, number, number] = [0x1f, 0x6f, 0xeb];
const WHITE: [number, number, number] = [0xff, 0xff, 0xff];
const PALE: [number, number, number] = [0xc9, 0xdc, 0xfb];

function icon(size: number): Buffer {
  const u = size / 100;
  const inRect = (x: number, y: number, x0: number, y0: number, x1: number, y1: number) =>
    x >= x0 * u && x < x1 * u && y >= y0 * u && y < y1 * u;
  return rgbPng(size, size, (x, y) => {
    // The first page, filled; the second, offset, drawn as a frame 3 units wide with lines of text.
    if (inRect(x, y, 24, 22, 58, 66)) {
      const line =
        inRect(x, y, 30, 30, 52, 33) || inRect(x, y, 30, 38, 52, 41) || inRect(x, y, 30, 46, 46, 49);
      return line ? PALE : WHITE;
    }
    if (inRect(x, y, 42, 34, 76, 78) && !inRect(x, y, 45, 37, 73, 75)) return WHITE;
    return BLUE;
  });
}

mkdirSync(OUT, { recursive: true });
for (const size of [192, 512]) writeFileSync(join(OUT, `icon-${size}.png`), icon(size));
console.log(`icons written to ${OUT}`);

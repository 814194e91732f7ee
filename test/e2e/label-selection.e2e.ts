import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { encodeLabelsCsv } from '../../src/core/eval/labels-codec';
import { appForSuite, AT_1280_800, type OpenApp, SHOTS, sampleUrls, openSample } from './harness';

mkdirSync(SHOTS, { recursive: true });

/** Pairs labelled before the keys are pressed: more than the labels list shows without scrolling. */
const PAIRS = 20;

/** A row of the labels list as the analyst sees it: the pair (its two URLs), its label, and whether selected. */
interface Row {
  pair: string;
  label: string;
  selected: boolean;
  /** The row lies inside the list's visible box. */
  inView: boolean;
}

async function rows(page: Page): Promise<Row[]> {
  return page.evaluate(() => {
    const list = document.querySelector('[role="listbox"][aria-label="Labels"]')!;
    const box = list.getBoundingClientRect();
    return [...list.querySelectorAll('[role="option"]')].map((li) => {
      const r = li.getBoundingClientRect();
      return {
        pair: [...li.querySelectorAll('.url')].map((u) => u.getAttribute('title')).join(' ↔ '),
        label: li.querySelector('.label-value')?.textContent ?? '',
        selected: li.getAttribute('aria-selected') === 'true',
        inView: r.top >= box.top - 1 && r.bottom <= box.bottom + 1,
      };
    });
  });
}

/** Two frames: React has drawn the key's effect and the list has scrolled. */
const settle = (page: Page) =>
  page.evaluate(
    () => new Promise<void>((ok) => requestAnimationFrame(() => requestAnimationFrame(() => ok()))),
  );

const NAMES: Record<string, string> = { d: 'duplicate', n: 'not', u: 'unsure' };

/**
 * Issue #24, item 1: in *All labels*, select the pair in row 4 and press n: the edited row goes to the
 * top (newest first). The selection must go with it, so the next keys act on the pair the analyst chose —
 * before, it stayed at row 4 (now another pair) and n, ↑, n labelled a pair never meant.
 */
describe('labels list: every label lands on the pair that was selected', () => {
  let app: OpenApp;
  let page: Page;
  appForSuite((a) => ([app, page] = [a, a.page]), AT_1280_800);

  it('opens the sample, computes signatures and imports labelled pairs', async () => {
    const urls = await sampleUrls();
    assert.ok(urls.length >= 2 * PAIRS, `sample URLs with text: ${urls.length}`);
    await openSample(page, { signatures: true });
    // Each pair labelled a duplicate a second apart: the list shows them newest first.
    const csv = encodeLabelsCsv(
      Array.from({ length: PAIRS }, (_, i) => ({
        a: NaN,
        b: NaN,
        urlA: urls[2 * i],
        urlB: urls[2 * i + 1],
        label: 'dup' as const,
        strategy: 'random' as const,
        pi: 1,
        at: new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString(),
      })),
    );
    await page.getByTestId('labels-file').setInputFiles({
      name: 'labels.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await page.getByText(`Imported ${PAIRS} new labels`).waitFor();
    const list = page.getByRole('listbox', { name: 'Labels' });
    assert.equal(await list.getByRole('option').count(), PAIRS);
  });

  it('select row 4, then n, ↑, n, …: each label lands on the selected pair, which stays selected and in view', async () => {
    const list = page.getByRole('listbox', { name: 'Labels' });
    await list.scrollIntoViewIfNeeded();
    await list.focus();
    await page.keyboard.press('Home');
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown');
    await settle(page);
    let shown = await rows(page);
    assert.equal(
      shown.findIndex((r) => r.selected),
      3,
      'row 4 selected',
    );
    // The sequence first, then more of the same: moves across the re-sorted list, a row from
    // below the fold, labels changed back and forth.
    const keys = [
      ...['n', 'ArrowUp', 'n'],
      ...['ArrowDown', 'ArrowDown', 'd', 'ArrowDown', 'ArrowDown', 'ArrowDown', 'u', 'ArrowUp', 'n'],
      ...['End', 'n', 'ArrowDown', 'ArrowDown', 'u', 'PageDown', 'n', 'Home', 'ArrowDown', 'd', 'd', 'n'],
    ];
    // What the analyst means: the pair selected when a key is pressed; a move goes to its neighbour in
    // the list as shown; a label changes that pair and no other, and the selection stays on it.
    let meant = shown[3].pair;
    const wrongLabels: string[] = [];
    const lostSelection: string[] = [];
    const outOfView: string[] = [];
    for (const [step, key] of keys.entries()) {
      const at = shown.findIndex((r) => r.pair === meant);
      const last = shown.length - 1;
      if (key === 'ArrowUp') meant = shown[Math.max(0, at - 1)].pair;
      else if (key === 'ArrowDown') meant = shown[Math.min(last, at + 1)].pair;
      else if (key === 'Home') meant = shown[0].pair;
      else if (key === 'End') meant = shown[last].pair;
      else if (key === 'PageDown') meant = shown[Math.min(last, at + 10)].pair;
      const expected = new Map(shown.map((r) => [r.pair, r.label]));
      if (NAMES[key]) expected.set(meant, NAMES[key]);
      await page.keyboard.press(key);
      await settle(page);
      shown = await rows(page);
      const what = `step ${step + 1} (${key}) on ${meant}`;
      const now = new Map(shown.map((r) => [r.pair, r.label]));
      const changed = [...now].filter(([p, l]) => expected.get(p) !== l).map(([p, l]) => `${p} → ${l}`);
      if (changed.length) wrongLabels.push(`${what}: unmeant ${changed.join('; ')}`);
      const sel = shown.find((r) => r.selected);
      if (sel?.pair !== meant) lostSelection.push(`${what}: selection on ${sel?.pair ?? 'nothing'}`);
      else if (!sel.inView) outOfView.push(`${what}: selected row out of view`);
    }
    await page.screenshot({ path: join(SHOTS, 'label-selection.png') });
    assert.deepEqual(wrongLabels, [], 'every label landed on the pair that was selected');
    assert.deepEqual(lostSelection, [], 'the selection followed its pair through every re-sort');
    assert.deepEqual(outOfView, [], 'the selected row stayed in view');
  });

  it('raised no uncaught error', () => {
    assert.deepEqual(app.errors, []);
  });
});

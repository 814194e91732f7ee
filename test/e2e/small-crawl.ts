import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { htmlPagesWarc } from '../../scripts/lib/warc-writer';
import { dropFile } from './harness';

/** A page of a crawl made for a test: its URL, title and text. */
export interface CrawlPage {
  url: string;
  title: string;
  text: string;
}

/** Writes the pages as a WARC of HTML responses in a fresh temporary folder; returns its path. */
export function writeCrawl(name: string, pages: readonly CrawlPage[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'dw-crawl-'));
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, htmlPagesWarc(name, pages));
  return file;
}

const WORDS = (
  'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa ' +
  'quebec romeo sierra tango uniform victor whiskey xray yankee zulu'
).split(' ');

/**
 * `n` words drawn from `doc`'s own sequence, each a word of `alphabet` and one of `variants` numbers:
 * different docs share few 5-word shingles. The e2e tests' one page-text generator; its sequence is
 * fixed (a linear congruential step, not src/core/random.ts), since the tests' pages and the figures
 * they expect come from it.
 */
export function words(doc: number, n = 300, variants = 97, alphabet: readonly string[] = WORDS): string[] {
  let s = doc * 7919 + 1;
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out.push(alphabet[s % alphabet.length] + String((s >>> 8) % variants));
  }
  return out;
}

/** Drops the file on the window and waits until its dataset is read. */
export async function openCrawl(page: Page, file: string, name: string): Promise<void> {
  await dropFile(page, file);
  await page
    .locator('.dataset-list li', { hasText: name })
    .locator('.badge.status-ready')
    .waitFor({ timeout: 60_000 });
}

/** Opens the embedded sample crawl and waits until it is read. */
export async function openSample(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Open sample crawl' }).click();
  await page
    .locator('.dataset-list li', { hasText: 'sample.warc.gz' })
    .locator('.badge.status-ready')
    .waitFor({ timeout: 60_000 });
}

/** Computes signatures for the selected dataset and waits for its clusters. */
export async function computeSignatures(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Compute signatures' }).click();
  await page.getByTestId('cluster-summary').waitFor({ timeout: 90_000 });
}

/** Mines DUST rules for the selected dataset and waits for them. */
export async function mineDust(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Mine DUST rules' }).click();
  await page.getByTestId('dust-headline').waitFor({ timeout: 90_000 });
}

/** How far the page is scrolled: the window, and the main area (the app's own scroll box). */
export async function scrolled(page: Page): Promise<{ window: number; main: number }> {
  return page.evaluate(() => ({
    window: window.scrollY,
    main: document.querySelector('main')?.scrollTop ?? 0,
  }));
}

/**
 * Pages through the template step and the signature engine (engine.ts) in one call, as the CLI and
 * the benches run them.
 */
import { CaptureIndex, earliestCaptures, type Captures } from './captures';
import { SignatureEngine } from './engine';
import type { EngineParams } from './engine-params';
import type { EngineResult } from './engine-result';
import { mainTexts } from '../text/template';

/** A page as the engine reads it. */
export interface EnginePage {
  text: string;
  normUrl: string;
  /** ISO 8601 capture time ('' unknown): the earliest capture of a URL stands for it (captures.ts). */
  fetchedAt?: string;
  outlinks: readonly string[];
  fingerprint: string;
  /** Template hints of the extractor (PageContent.templateHints). */
  templateHints?: readonly number[];
}

/**
 * Every page through the engine with the template step first (captures of one URL first folded into
 * its earliest capture unless `params.captures` is 'each': `kept` lists the pages' indexes in signature
 * order, `captures` the others with `seqs` holding their indexes in `pages`): the main texts of the pages (the model
 * built over all of them, per site) when `params.template.strip`, else the whole texts. The CLI and the
 * benches call this; the signatures job does the same over its IndexedDB stream.
 */
export function analysePages(
  pages: readonly EnginePage[],
  params: Partial<EngineParams> = {},
): { result: EngineResult; texts: string[]; kept: number[]; captures: Captures } {
  const engine = new SignatureEngine(params);
  // Captures of one URL: its first capture stands for it (captures.ts), unless compared.
  const index = new CaptureIndex(
    engine.params.captures,
    earliestCaptures(pages.map((p, i) => ({ normUrl: p.normUrl, seq: i, fetchedAt: p.fetchedAt ?? '' }))),
  );
  const kept: number[] = [];
  pages.forEach((p, i) => {
    if (index.standsFor(p.normUrl, i, kept.length) < 0) kept.push(i);
  });
  const t = performance.now();
  const texts = mainTexts(
    kept.map((k) => ({ url: pages[k].normUrl, text: pages[k].text, hints: pages[k].templateHints })),
    engine.params.template,
  );
  engine.timings.template = performance.now() - t;
  kept.forEach((k, i) => engine.add({ ...pages[k], text: texts[i] }));
  return { result: engine.finish(), texts, kept, captures: index.result() };
}

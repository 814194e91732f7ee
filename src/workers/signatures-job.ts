import { ENGINE_DEFAULTS, type EngineParams } from '../core/candidates/engine-params';
import { SignatureEngine } from '../core/candidates/engine';
import type { EnginePage } from '../core/candidates/analyse-pages';
import {
  measureInParallel,
  PARALLEL_MEASURE_MAX_BYTES,
  PARALLEL_MIN_CHARS,
  PARALLEL_MIN_PAGES,
  SignedFold,
  type PageSigner,
} from '../core/candidates/signed-fold';
import { CaptureIndex, earliestCaptures } from '../core/candidates/captures';
import { comparable } from '../core/candidates/comparable';
import { checkCancelled, type JobOutcome } from '../core/jobs';
import { forEachPageWithContent } from '../db/page-contents';
import { loadPages } from '../db/page-rows';
import { putForDataset } from '../db/orphans';
import { jobFailure } from './job-failure';
import { db, type StoredAnalysis, type StoredContent, type StoredPage } from '../db/schema';
import { signatureText, TemplateModel } from '../core/text/template';
import { getDataset } from '../db/queries';

/** A batch of pages with their content, as IndexedDB gives it. */
type PageBatch = { page: StoredPage; content: StoredContent | undefined }[];

/**
 * The first pass's pages are held for the second while their text stays under this many characters
 * (~2 bytes each): 5,000 long pages of documentation take 48M, and their second read from IndexedDB
 * took ~0.4 s of the job's own thread. Past it they are read again.
 */
const HOLD_CHARS = 64 << 20;

export interface AnalysisProgress {
  phase: 'template text' | 'signatures' | 'candidates' | 'saving';
  done: number;
  total: number;
  elapsedMs: number;
}

export type AnalysisResult = JobOutcome<{ paramsKey: string }>;

/** The parameters whose change needs a recomputation, in a canonical form (the analysis key). */
export function paramsKey(p: EngineParams): string {
  const canon = (v: unknown): unknown =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.keys(v)
            .sort()
            .map((k) => [k, canon((v as Record<string, unknown>)[k])]),
        )
      : v;
  return JSON.stringify(canon(p));
}

/** Compute every method's signatures and the candidate pairs of a dataset; store them in Dexie. */
export async function runAnalysis(
  { datasetId, params }: { datasetId: number; params: Partial<EngineParams> },
  onProgress: (p: AnalysisProgress) => void,
  isCancelled: () => boolean,
  startSigners?: () => PageSigner[],
  holdChars = HOLD_CHARS,
  minChars = PARALLEL_MIN_CHARS,
): Promise<AnalysisResult> {
  const t0 = performance.now();
  const full: EngineParams = { ...ENGINE_DEFAULTS, ...params };
  const d = db();
  let signers: PageSigner[] = [];
  try {
    const ds = await getDataset(d, datasetId);
    if (!ds) return { kind: 'failed', message: `dataset ${datasetId} not found` };
    const engine = new SignatureEngine(full);
    const seqs: number[] = [];
    // Captures of one URL: its earliest capture stands for it, unless the analyst compares captures
    // (captures.ts; the pages' times are read first, from the pages table without their text).
    const captures = new CaptureIndex(
      engine.params.captures,
      engine.params.captures === 'each'
        ? null
        : earliestCaptures((await loadPages(d, datasetId)).filter((p) => comparable(p) && p.textLength > 0)),
    );
    let done = 0;
    let last = 0;
    const progress = (phase: AnalysisProgress['phase']) => {
      const now = performance.now();
      if (now - last > 100) {
        last = now;
        onProgress({ phase, done, total: ds.pages, elapsedMs: now - t0 });
      }
    };
    // Signers started now when the dataset may hold text enough for them (a character takes a byte stored
    // or more, so a dataset storing fewer bytes has too little), so that their module loads and compiles
    // during the first pass: started at the second, the job waited for them 0.39–0.45 s of docsite's
    // 1.62–1.72 s (0.15 s when started here). Text stored once for pages that share it may be counted more
    // than stored: such a dataset has its signers started at the second pass, as before.
    if (engine.params.template.strip && (ds.storedBytes ?? 0) >= minChars) signers = startSigners?.() ?? [];
    const template = new TemplateModel(engine.params.template);
    const templatePage = (page: StoredPage, content: StoredContent) => ({
      url: page.normUrl,
      text: content.text,
      hints: content.templateHints,
    });
    // First pass (only when template text is left out): count each site's lines (CCNet's line hashes).
    // Where the job's time goes, beside the engine's steps (stored with them in timings).
    const jobTimes: Record<string, number> = { 'job.templateObserve': 0, 'job.templateSplit': 0 };
    let phase = performance.now();
    // Each page's line hashes, made on the first pass for the second (4–8 bytes a line); and the first
    // pass's batches themselves while their text stays under HOLD_CHARS, so the second pass need not read
    // them again from IndexedDB.
    const lineHashes = new Map<number, Float64Array>();
    let held: PageBatch[] | null = engine.params.template.strip ? [] : null;
    let heldChars = 0;
    if (engine.params.template.strip) {
      const seen = new Set<string>();
      await forEachPageWithContent(d, datasetId, 500, (batch) => {
        checkCancelled(isCancelled);
        for (const { page, content } of batch) {
          done++;
          if (!comparable(page) || !content?.text) continue;
          const t = performance.now();
          const hashes = template.lineHashes(content.text);
          lineHashes.set(page.seq, hashes);
          heldChars += content.text.length;
          // The template model counts each URL once (a re-fetch would count its lines twice).
          if (!seen.has(page.normUrl)) {
            seen.add(page.normUrl);
            template.observe(templatePage(page, content), hashes);
          }
          jobTimes['job.templateObserve'] += performance.now() - t;
        }
        if (held && heldChars <= holdChars) held.push(batch);
        else held = null;
        progress('template text');
      });
      done = 0;
    }
    jobTimes['job.firstPass'] = performance.now() - phase;
    phase = performance.now();
    // Other workers sign a share of each batch when the dataset has text enough to repay starting them.
    const enough = engine.params.template.strip ? heldChars >= minChars : ds.pages >= PARALLEL_MIN_PAGES;
    if (!enough) {
      for (const w of signers) w.terminate();
      signers = [];
    } else if (signers.length === 0) signers = startSigners?.() ?? [];
    const fold = new SignedFold(engine, signers);
    const secondPass = async (batch: PageBatch) => {
      checkCancelled(isCancelled);
      const pages: EnginePage[] = [];
      for (const { page, content } of batch) {
        done++;
        if (!comparable(page) || !content?.text) continue;
        if (captures.standsFor(page.normUrl, page.seq, seqs.length) >= 0) continue;
        const t = performance.now();
        const text = engine.params.template.strip
          ? signatureText(template.split(templatePage(page, content), lineHashes.get(page.seq)), content.text)
          : content.text;
        jobTimes['job.templateSplit'] += performance.now() - t;
        pages.push({
          text,
          normUrl: page.normUrl,
          outlinks: content.outlinks,
          fingerprint: page.fingerprint,
        });
        seqs.push(page.seq);
      }
      await fold.add(pages);
      progress('signatures');
    };
    if (held) for (const batch of held) await secondPass(batch);
    else await forEachPageWithContent(d, datasetId, 500, secondPass);
    held = null;
    await fold.flush();
    jobTimes['job.secondPass'] = performance.now() - phase;
    phase = performance.now();
    onProgress({ phase: 'candidates', done, total: ds.pages, elapsedMs: performance.now() - t0 });
    const r =
      signers.length > 0 && engine.heavyRowsBytes <= PARALLEL_MEASURE_MAX_BYTES
        ? await engine.finishWith((rows, a, b, est) => measureInParallel(signers, rows, a, b, est))
        : engine.finish();
    jobTimes['job.finish'] = performance.now() - phase;
    jobTimes['job.signers'] = signers.length;
    if (isCancelled()) return { kind: 'cancelled' };
    onProgress({ phase: 'saving', done, total: ds.pages, elapsedMs: performance.now() - t0 });
    const key = paramsKey(full);
    const stored: StoredAnalysis = {
      datasetId,
      paramsKey: key,
      params: full,
      created: new Date().toISOString(),
      seqs: Float64Array.from(seqs),
      captures: captures.result(),
      n: r.n,
      K: r.K,
      R: r.R,
      X: r.X,
      pairs: r.pairs,
      timings: { ...r.timings, ...jobTimes },
      candidates: r.candidates,
      bands: r.bands,
      maxD: r.maxD,
      elapsedMs: performance.now() - t0,
      ...(engine.params.template.strip ? { template: template.toStored() } : {}),
    };
    // Written only while the dataset exists (deleted mid-job, in any tab: DatasetGone, a cancel).
    await putForDataset(d, d.analyses, stored);
    return { kind: 'done', paramsKey: key };
  } catch (e) {
    return jobFailure(e, 'the signatures');
  } finally {
    for (const w of signers) w.terminate();
  }
}

/**
 * Never lose text silently, in the workbench: the shingle sets of the text the signatures read (the
 * shown analysis's template model, its shingling options) for the pages asked, read from IndexedDB a
 * chunk at a time, and the share of a member's text its kept copy lacks (core/clusters/loses-text.ts),
 * as every export and the batch compute it.
 */
import { lostShare } from '../core/clusters/loses-text';
import { shingleSet } from '../core/signatures/shingles';
import { signatureText } from '../core/text/template';
import { loadContents } from '../db/page-contents';
import { db, type StoredAnalysis, type StoredPage } from '../db/schema';
import { templateSplit } from './pages';

/** Pages read at once. */
const BATCH = 500;

/** The shingle sets of these pages' signature texts, by seq (an empty set for a page without text). */
export async function signatureShingles(
  analysis: StoredAnalysis,
  pages: readonly StoredPage[],
  all: readonly StoredPage[],
): Promise<Map<number, Uint32Array>> {
  const out = new Map<number, Uint32Array>();
  for (let i = 0; i < pages.length; i += BATCH) {
    const batch = pages.slice(i, i + BATCH);
    const contents = await loadContents(db(), analysis.datasetId, batch);
    for (const [k, p] of batch.entries()) {
      const c = contents[k];
      if (!c?.text) {
        out.set(p.seq, new Uint32Array(0));
        continue;
      }
      const text = analysis.params.template.strip
        ? signatureText(
            await templateSplit(analysis.datasetId, all, p.normUrl, c, analysis.params.template),
            c.text,
          )
        : c.text;
      out.set(p.seq, shingleSet(text, analysis.params.shingles));
    }
  }
  return out;
}

/**
 * `lost` for an export: each member's share of text its kept copy lacks, by page index of the analysis,
 * over the shingle sets of every page of the clusters given.
 */
export async function lostOf(
  analysis: StoredAnalysis,
  clusters: readonly { members: readonly number[] }[],
  bySeq: ReadonlyMap<number, StoredPage>,
  all: readonly StoredPage[],
): Promise<(member: number, kept: number) => number> {
  const pages: StoredPage[] = [];
  for (const c of clusters)
    for (const m of c.members) {
      const p = bySeq.get(analysis.seqs[m]);
      if (p) pages.push(p);
    }
  const sets = await signatureShingles(analysis, pages, all);
  const empty = new Uint32Array(0);
  const of = (i: number) => sets.get(analysis.seqs[i]) ?? empty;
  return (member, kept) => lostShare(of(member), of(kept));
}

import { create } from 'zustand';
import { comparable } from '../core/candidates/comparable';
import { siteOfUrl, TemplateModel, type TemplateOptions, type TemplateSplit } from '../core/text/template';
import { loadContent, loadContents } from '../db/page-contents';
import { loadPages } from '../db/page-rows';
import { db, type StoredAnalysis, type StoredContent, type StoredPage } from '../db/schema';
import { useAnalysis } from './analysis';
import { pageBySeq } from './selectors';

export type SortKey =
  'seq' | 'url' | 'host' | 'status' | 'mime' | 'size' | 'title' | 'textLength' | 'canonical';

export interface PageFilter {
  url: string;
  host: string;
  status: string;
  mime: string;
}

interface PagesState {
  datasetId: number | null;
  pages: StoredPage[];
  /** A page's position in the file (seqs of parallel parts leave gaps): what '#' shows. */
  rankOf: Map<number, number>;
  loading: boolean;
  filter: PageFilter;
  sort: { key: SortKey; dir: 1 | -1 };
  selectedSeq: number | null;
  content: StoredContent | null;
  /** Content of the original when the selected page is a revisit. */
  revisited: StoredContent | null;
  /** Template text of the shown text (the page's, or the original's for a revisit): its site's model. */
  template: { seq: number; spans: [number, number][] } | null;
  load(datasetId: number | null): Promise<void>;
  setFilter(f: Partial<PageFilter>): void;
  setSort(key: SortKey): void;
  selectPage(seq: number | null): Promise<void>;
}

export const emptyFilter: PageFilter = { url: '', host: '', status: '', mime: '' };

export const usePages = create<PagesState>((set, get) => ({
  datasetId: null,
  pages: [],
  rankOf: new Map(),
  loading: false,
  filter: emptyFilter,
  sort: { key: 'seq', dir: 1 },
  selectedSeq: null,
  content: null,
  revisited: null,
  template: null,

  async load(datasetId) {
    // Reloading the same dataset (it grew, or finished) keeps the analyst's filter and selection.
    if (datasetId !== get().datasetId) {
      set({ selectedSeq: null, content: null, revisited: null, template: null, filter: emptyFilter });
    }
    set({ datasetId, loading: true });
    const pages = datasetId === null ? [] : await loadPages(db(), datasetId);
    const rankOf = new Map(pages.map((p, i) => [p.seq, i]));
    if (get().datasetId === datasetId) set({ pages, rankOf, loading: false });
  },

  setFilter(f) {
    set({ filter: { ...get().filter, ...f } });
  },

  setSort(key) {
    const s = get().sort;
    set({ sort: { key, dir: s.key === key ? (-s.dir as 1 | -1) : 1 } });
  },

  async selectPage(seq) {
    const id = get().datasetId;
    // A click on the page already shown keeps its content: reading it again would copy every outlink
    // (200,000 on a sitemap) out of IndexedDB once more for nothing.
    if (seq !== null && seq === get().selectedSeq && get().content?.seq === seq) return;
    set({ selectedSeq: seq, content: null, revisited: null, template: null });
    if (seq === null || id === null) return;
    const content = (await loadContent(db(), id, seq)) ?? null;
    const page = pageBySeq(get().pages).get(seq);
    const revisited =
      page && page.revisitOf >= 0 ? ((await loadContent(db(), id, page.revisitOf)) ?? null) : null;
    if (get().selectedSeq !== seq) return;
    set({ content, revisited });
    const shown = content?.text ? content : revisited;
    if (!page || !shown?.text) return;
    const split = await templateSplit(id, get().pages, page.normUrl, shown);
    if (get().selectedSeq === seq) set({ template: { seq, spans: split.spans } });
  },
}));

/** A page's stored content (text, links, template hints), or undefined when it has none. */
export function pageContent(datasetId: number, seq: number): Promise<StoredContent | undefined> {
  return loadContent(db(), datasetId, seq);
}

/** Filter and sort in one pass over the rows (pure: tested without a DOM). */
export function visiblePages(
  pages: StoredPage[],
  f: PageFilter,
  sort: { key: SortKey; dir: 1 | -1 },
  canonical?: ReadonlyMap<string, string>,
): StoredPage[] {
  const url = f.url.trim().toLowerCase();
  const out = pages.filter(
    (p) =>
      (!url || p.url.toLowerCase().includes(url) || p.title.toLowerCase().includes(url)) &&
      (!f.host || p.host === f.host) &&
      (!f.status || statusClass(p.status) === f.status || String(p.status) === f.status) &&
      (!f.mime || p.mime === f.mime),
  );
  const k = sort.key;
  const val = (p: StoredPage): string | number =>
    k === 'size' ? p.sizeMax : k === 'canonical' ? (canonical?.get(p.normUrl) ?? '') : p[k];
  out.sort((a, b) => {
    const x = val(a);
    const y = val(b);
    return (x < y ? -1 : x > y ? 1 : a.seq - b.seq) * sort.dir;
  });
  return out;
}

export function statusClass(s: number): string {
  return s <= 0 ? 'none' : `${Math.floor(s / 100)}xx`;
}

/** A site's pages read for its template model at most: an even sample of a larger site (shares hold). */
const MAX_SITE_PAGES = 3000;
const models = new Map<string, Promise<TemplateModel>>();

const storedModels = new WeakMap<StoredAnalysis, TemplateModel>();

/**
 * The template split of one page's text (src/core/text/template.ts), for the page detail and the pair
 * view. By the model the shown analysis stored (the signatures job's, over the whole dataset): the text
 * shown as template is the text that was left out of the comparison. Before any analysis (or after one
 * that compared whole texts), by a model of the page's site built on demand from its stored pages (an
 * even sample of at most 3,000), cached per dataset, site and options.
 */
export async function templateSplit(
  datasetId: number,
  pages: readonly StoredPage[],
  normUrl: string,
  content: { text: string; templateHints?: number[] },
  opts: TemplateOptions = useAnalysis.getState().params.template,
): Promise<TemplateSplit> {
  const page = { url: normUrl, text: content.text, hints: content.templateHints };
  const analysis = useAnalysis.getState().analysis;
  if (analysis?.datasetId === datasetId && analysis.template) {
    let stored = storedModels.get(analysis);
    if (!stored) {
      stored = TemplateModel.fromStored(analysis.params.template, analysis.template);
      storedModels.set(analysis, stored);
    }
    return stored.split(page);
  }
  const site = siteOfUrl(normUrl);
  const key = `${datasetId}|${pages.length}|${site}|${JSON.stringify(opts)}`;
  let model = models.get(key);
  if (!model) {
    model = buildSiteModel(
      datasetId,
      pages.filter((p) => comparable(p) && siteOfUrl(p.normUrl) === site),
      opts,
    );
    if (models.size > 20) models.clear();
    models.set(key, model);
  }
  return (await model).split(page);
}

async function buildSiteModel(
  datasetId: number,
  sitePages: readonly StoredPage[],
  opts: TemplateOptions,
): Promise<TemplateModel> {
  const step = Math.max(1, sitePages.length / MAX_SITE_PAGES);
  const picked: StoredPage[] = [];
  for (let i = 0; i < sitePages.length; i += step) picked.push(sitePages[Math.floor(i)]);
  const model = new TemplateModel(opts);
  for (let i = 0; i < picked.length; i += 500) {
    const batch = picked.slice(i, i + 500);
    const contents = await loadContents(db(), datasetId, batch);
    batch.forEach((p, k) => {
      const c = contents[k];
      if (c?.text) model.observe({ url: p.normUrl, text: c.text, hints: c.templateHints });
    });
  }
  return model;
}

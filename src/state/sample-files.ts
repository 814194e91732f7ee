/**
 * The crawl's files a sample was read from, by dataset, in this tab: DUST reads the partners of sampled
 * URLs from them by byte range (workers/dust-job.ts). In memory only — the workbench keeps pages, not a
 * crawl's bytes, and a File does not outlive the page — so after a reload, or in another tab, the
 * analyst chooses them again (the DUST pane asks).
 */
const byDataset = new Map<number, File[]>();

export function rememberSampleFiles(datasetId: number, files: File[]): void {
  byDataset.set(datasetId, files);
}

export function sampleFiles(datasetId: number): File[] | undefined {
  return byDataset.get(datasetId);
}

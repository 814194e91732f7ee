/**
 * How many of the dataset's pages link to each URL: the form "the site's own links use most" is the
 * one a person would call canonical (representatives.ts). A page counts once per URL it links to,
 * and never for itself. URLs are the normalised outlinks ingest stored (PageContent.outlinks).
 */
export class InlinkCounter {
  private readonly counts = new Map<string, number>();

  add(pageUrl: string, outlinks: readonly string[]): void {
    const seen = new Set<string>();
    for (const l of outlinks) {
      if (l === pageUrl || seen.has(l)) continue;
      seen.add(l);
      this.counts.set(l, (this.counts.get(l) ?? 0) + 1);
    }
  }

  /** Links to url from the pages added; 0 when none. */
  of(url: string): number {
    return this.counts.get(url) ?? 0;
  }
}

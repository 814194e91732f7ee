/**
 * What an HTML page gives the workbench (extract.ts makes it): text only, never markup (crawled content
 * is hostile).
 */
export interface Extracted {
  title: string;
  /** Visible text; block boundaries as line breaks (tidied by tidyText downstream). */
  text: string;
  /** Outlinks resolved against <base> (or the page URL) and normalised; first occurrence kept. */
  outlinks: string[];
  rawOutlinks: string[];
  /**
   * Lines of text (tidied) found inside <nav>, <aside>, and <header>/<footer> outside <article> and
   * <main>: hints for the template model (src/core/text/template.ts), never removed from `text`.
   */
  templateHints: string[];
}

/**
 * What an HTML page gives whatever its URL: everything of Extracted but the resolved links. Two pages
 * with the same HTML have the same body (a page served under several URLs — DUST — or copied whole),
 * so a read extracts it once (ingest/extraction-cache.ts) and resolves only the links per page.
 */
export interface ExtractedBody {
  title: string;
  text: string;
  /** Link attribute values, in document order (duplicates and non-web links included). */
  raw: string[];
  /** The first non-empty `<base href>`, as written; null when the page has none. */
  baseHref: string | null;
  templateHints: string[];
}

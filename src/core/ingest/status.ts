/**
 * The status class a summary counts a page under: '2xx' for 200–299 …; 'other' for statuses that are
 * not HTTP's (0 unknown, Heritrix's negative codes). A module of its own, free of the pipeline's
 * modules, so the database's queries use the same classes without bundling the pipeline.
 */
export function statusClass(status: number): string {
  return status >= 100 && status < 600 ? `${Math.floor(status / 100)}xx` : 'other';
}

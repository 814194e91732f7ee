/// <reference lib="webworker" />
import { runArchiveExport } from './archive-export-job';
import { exposeJob, type JobApiOf } from './expose-job';

/** Thin adapter: a crawl's WARC written again with its duplicates as revisits, or its CDXJ index. */
exposeJob(runArchiveExport);

export type ArchiveExportWorkerApi = JobApiOf<typeof runArchiveExport>;

/// <reference lib="webworker" />
import { runDedupWarc } from './dedup-warc-job';
import { exposeJob, type JobApiOf } from './expose-job';

/** Thin adapter: a crawl's WARC written again with its duplicate captures as revisits. */
exposeJob(runDedupWarc);

export type DedupWarcWorkerApi = JobApiOf<typeof runDedupWarc>;

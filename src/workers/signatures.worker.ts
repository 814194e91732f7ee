/// <reference lib="webworker" />
import { runAnalysis } from './signatures-job';
import { exposeJob, type JobApiOf } from './expose-job';

/** Thin adapter: signatures + candidates of one dataset, stored in Dexie. */
exposeJob(runAnalysis);

export type SignaturesWorkerApi = JobApiOf<typeof runAnalysis>;

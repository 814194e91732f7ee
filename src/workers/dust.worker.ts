/// <reference lib="webworker" />
import { runDust } from './dust-job';
import { exposeJob, type JobApiOf } from './expose-job';

/** Thin adapter: DustBuster over one dataset, stored in Dexie. */
exposeJob(runDust);

export type DustWorkerApi = JobApiOf<typeof runDust>;

/// <reference lib="webworker" />
import { runDust } from './dust-job';
import { exposeJob } from './expose-job';

/** Thin adapter: DustBuster over one dataset, stored in Dexie. */
const api = exposeJob(runDust);

export type DustWorkerApi = typeof api;

/// <reference lib="webworker" />
import { exposeJob } from './expose-job';
import { runAnalysis } from './signatures-job';

/** Thin adapter: signatures + candidates of one dataset, stored in Dexie. */
const api = exposeJob(runAnalysis);

export type SignaturesWorkerApi = typeof api;

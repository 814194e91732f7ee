/// <reference lib="webworker" />
import { runAnalysis } from './signatures-job';
import { exposeJob, type JobApiOf } from './expose-job';
import { startSigners } from './signers';

/** Thin adapter: signatures + candidates of one dataset, stored in Dexie, a share signed by signers. */
exposeJob<
  Parameters<typeof runAnalysis>[0],
  Parameters<Parameters<typeof runAnalysis>[1]>[0],
  AnalysisOutcome
>((args, onProgress, isCancelled) => runAnalysis(args, onProgress, isCancelled, startSigners));

type AnalysisOutcome = Awaited<ReturnType<typeof runAnalysis>>;
export type SignaturesWorkerApi = JobApiOf<typeof runAnalysis>;

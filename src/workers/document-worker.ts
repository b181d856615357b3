import { parentPort, workerData } from 'node:worker_threads';
import { documentHandler } from './document-handler.js';
import type { DocumentJob, DocumentResult, WorkerSetup } from './document-job.js';

// A worker thread of the document pool: describes documents (decode, parse, links) and writes them
// into the mirror, so the main thread only fetches and schedules.
const handle = documentHandler(workerData as WorkerSetup, true);

// Results of one turn go back in one message, as the jobs came.
let outbox: DocumentResult[] = [];
const post = (): void => {
  parentPort!.postMessage(outbox);
  outbox = [];
};

parentPort!.on('message', (jobs: readonly DocumentJob[]) => {
  for (const job of jobs) {
    void handle(job).then((result) => {
      if (outbox.length === 0) setImmediate(post);
      outbox.push(result);
    });
  }
});
// The first message, empty, says the worker is ready for jobs.
post();

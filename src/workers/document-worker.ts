import { parentPort, workerData } from 'node:worker_threads';
import { documentHandler } from './document-handler.js';
import type { DocumentJob, WorkerSetup } from './document-job.js';
import { toWire } from './result-wire.js';

// A worker thread of the document pool: describes documents (decode, parse, links) and writes them
// into the mirror, so the main thread only fetches and schedules.
const handle = documentHandler(workerData as WorkerSetup, true);

// Results go back one by one, as soon as each is ready: the main thread can start the next fetches
// while the rest of a batch is parsed (returning whole batches made fetching and parsing take turns).
const queue: DocumentJob[] = [];
let draining = false;

async function drain(): Promise<void> {
  draining = true;
  for (let job = queue.shift(); job !== undefined; job = queue.shift()) parentPort!.postMessage(toWire(await handle(job)));
  draining = false;
}

parentPort!.on('message', (jobs: readonly DocumentJob[]) => {
  queue.push(...jobs);
  if (!draining) void drain();
});
// The first message, null, says the worker is ready for jobs.
parentPort!.postMessage(null);

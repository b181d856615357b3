import { parentPort, workerData } from 'node:worker_threads';
import { describeDocument, type DescribeOptions } from '../parse/describe-document.js';
import { linkPolicy } from '../stages/link-policy.js';
import { MirrorStore } from '../store/mirror-store.js';
import type { FilterReason } from '../url/filter-reason.js';
import { makeScope } from '../url/scope.js';
import { makeListFilter } from '../url/url-lists.js';
import type { DocumentJob, DocumentResult, WorkerSetup } from './document-job.js';

// A worker thread of the document pool: describes documents (decode, parse, links) and writes them
// into the mirror, so the main thread only fetches and schedules.
const setup = workerData as WorkerSetup;
const regexes = (list: WorkerSetup['accept']) => list.map(([source, flags]) => new RegExp(source, flags));
const policy = linkPolicy(makeScope(setup.scope, setup.seeds), makeListFilter(regexes(setup.accept), regexes(setup.reject)));
const options: DescribeOptions = { ...setup, check: policy.check.bind(policy) };
const store = new MirrorStore(setup.repository, { sync: true });

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

async function handle(job: DocumentJob): Promise<DocumentResult> {
  try {
    const dropped: [FilterReason, string][] = [];
    const description = describeDocument(job, options, (reason, url) => dropped.push([reason, url]));
    const localPath = job.store ? await store.save(new URL(job.url), description.isHtml, job.body) : undefined;
    return { id: job.id, description, localPath, dropped };
  } catch (err) {
    return { id: job.id, error: (err as Error).message, code: (err as NodeJS.ErrnoException).code };
  }
}

import { describeDocument, type DescribeOptions } from '../parse/describe-document.js';
import { linkPolicy } from '../url/link-policy.js';
import { MirrorStore } from '../store/mirror-store.js';
import type { FilterReason } from '../model/filter-reason.js';
import { cachedNormalizer } from '../url/link-cache.js';
import type { DocumentJob, DocumentResult, WorkerSetup } from './document-job.js';

/** A rendered DOM is serialized by the browser as UTF-8, whatever the fetched page's charset was. */
const RENDERED_TYPE = 'text/html; charset=utf-8';
/** The rendered DOM's file, beside the page as fetched. */
const RENDERED_SUFFIX = '.rendered.html';

/**
 * What the document pool does with one job, in a worker thread or (until a worker is up) on the
 * main thread: describe the document (decode, parse, links through scope and lists) and write it
 * into the mirror. `sync` writes with synchronous calls, for a thread that has nothing else to do.
 * Never rejects: a failure is a result with an `error`.
 *
 * @example
 * const handle = documentHandler(setup, true);
 * await handle({ id: 0, url: 'http://a.test/', contentType: 'text/html', xRobotsTag: undefined, body, store: true })
 * //=> { id: 0, description: { type: 'html', links: [...], ... }, localPath: 'a.test/index.html', dropped: [] }
 */
export function documentHandler(setup: WorkerSetup, sync: boolean): (job: DocumentJob) => Promise<DocumentResult> {
  const policy = linkPolicy(setup.policy);
  const options: DescribeOptions = { ...setup, check: policy.check.bind(policy), resolve: cachedNormalizer() };
  const store = new MirrorStore(setup.repository, { sync, ...(setup.reserved ? { reserved: setup.reserved } : {}) });
  return async (job) => {
    if (job.scopeSeeds) for (const seed of job.scopeSeeds) policy.widen(seed);
    try {
      const dropped: [FilterReason, string][] = [];
      const parsed = job.rendered ? { ...job, contentType: RENDERED_TYPE, body: job.rendered } : job;
      const description = describeDocument(parsed, options, (reason, url) => dropped.push([reason, url]));
      const localPath = job.store ? await store.save(new URL(job.url), description.isHtml, job.body, job.previous) : undefined;
      const renderedPath = localPath !== undefined && job.rendered ? await store.saveBeside(localPath, RENDERED_SUFFIX, job.rendered) : undefined;
      return renderedPath === undefined ? { id: job.id, description, localPath, dropped } : { id: job.id, description, localPath, renderedPath, dropped };
    } catch (err) {
      return { id: job.id, error: (err as Error).message, code: (err as NodeJS.ErrnoException).code };
    }
  };
}

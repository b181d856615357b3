import type { OperatorFunction } from 'rxjs';
import type { CrawlRequest } from '../model/crawl-request.js';
import type { SeenSet } from '../frontier/seen-set.js';
import type { PrioritizedRequest } from '../frontier/prioritizer.js';
import type { Writable } from '../model/writable.js';
import { hostKey } from '../url/url-parts.js';
import type { Admissible } from './drop-when.js';
import type { DropReport } from '../model/filter-reason.js';
import { stepOperator, type AdmissionStep } from './admission-step.js';

/**
 * Drops URLs already admitted and turns the rest into {@link CrawlRequest}s. The seen-set is passed
 * in (shared by every unit of the crawl, rebuilt from the journal on resume). Given the set of URLs
 * already `started` (depth-first), a URL seen but still waiting is let through again, marked `again`,
 * so that it moves to the top of the stack: the crawl is then an exact depth-first preorder.
 * With `reconsider`, only the URLs it picks are let through again (priorities: the ones whose
 * level just rose); without `started` (a worker of a shared crawl, whose requests come from Redis),
 * those alone are.
 *
 * @example
 * of(admissible, admissible).pipe(dedup(seen, report)) //=> one CrawlRequest, then 'duplicate' reported
 */
export function dedup(seen: SeenSet, report: DropReport, started?: SeenSet, reconsider?: (a: Admissible) => boolean): OperatorFunction<Admissible, CrawlRequest> {
  return stepOperator(dedupStep(seen, report, started, reconsider));
}

/**
 * {@link dedup} as an {@link AdmissionStep}. Given `levelOf` (the default admission's prioritizer),
 * each request is made with its level rather than copied again to add it (`prioritize`): a broad
 * crawl admits fifteen new URLs a page.
 */
export function dedupStep(
  seen: SeenSet,
  report: DropReport,
  started?: SeenSet,
  reconsider?: (a: Admissible) => boolean,
  levelOf?: (req: PrioritizedRequest) => number,
): AdmissionStep<Admissible, CrawlRequest> {
  return (a) => {
    const url = a.url;
    const isNew = seen.add(url);
    // `reconsider` first: it is cheaper than a look-up in `started`, and mostly says no.
    if (!isNew && (reconsider === undefined ? started === undefined || started.has(url) : !reconsider(a) || started?.has(url) === true)) {
      report('duplicate', url);
      return undefined;
    }
    const c = a.candidate;
    const original = c.originalUrl ?? c.href;
    const req: Writable<CrawlRequest> = {
      url,
      // Slices of another string keep all of it alive: the host of a URL object holds its href,
      // and an href the parser found holds the whole page.
      host: hostKey(url),
      depth: c.depth,
      originalUrl: original === url ? url : detach(original),
      redirects: c.redirects ?? 0,
      attempt: 0,
    };
    if (!isNew) req.again = true;
    if (c.sitemap !== undefined) req.sitemap = c.sitemap;
    if (c.sitemapLastmod !== undefined) req.sitemapLastmod = c.sitemapLastmod;
    if (levelOf !== undefined) req.level = levelOf(req);
    return req;
  };
}

/** A copy of `s` that shares no memory with the string it was cut from. */
const detach = (s: string): string => (s.length < 13 ? s : Buffer.from(s, 'utf8').toString('utf8'));

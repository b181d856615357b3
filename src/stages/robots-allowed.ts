import type { MonoTypeOperatorFunction } from 'rxjs';
import type { CrawlRequest } from '../model/crawl-request.js';
import type { RobotsCache, RobotsVerdict } from '../robots/robots-cache.js';
import type { FilterReason } from '../model/filter-reason.js';
import { originOf } from '../url/url-parts.js';
import type { DropReport } from '../model/filter-reason.js';
import { stepOperator, type AdmissionStep } from './admission-step.js';

/**
 * Drops, during admission, URLs that an already cached robots.txt disallows, so they never take a
 * fetch slot. URLs of origins whose robots.txt is not known yet pass: `obeyRobots` checks them in
 * the unit. Runs after dedup so a disallowed URL linked from many pages is reported once.
 *
 * @example
 * of(req).pipe(robotsAllowed(robots, 'tarantula/1', report)) //=> req, or nothing ('robots')
 */
export function robotsAllowed(robots: RobotsCache, userAgent: string, report: DropReport): MonoTypeOperatorFunction<CrawlRequest> {
  return stepOperator(robotsAllowedStep(robots, userAgent, report));
}

const SLASH = 0x2f;
/** Hosts whose origin is remembered; a broad crawl's are forgotten all at once past this. */
const MAX_ORIGINS = 4096;

/** {@link robotsAllowed} as an {@link AdmissionStep}. */
export function robotsAllowedStep(robots: RobotsCache, userAgent: string, report: DropReport): AdmissionStep<CrawlRequest, CrawlRequest> {
  // Each host's origin string, made once: cutting it from every URL cost more than the look-up.
  const origins = new Map<string, string>();
  const originOfRequest = (req: CrawlRequest): string => {
    const known = origins.get(req.host);
    if (known !== undefined && req.url.startsWith(known) && req.url.charCodeAt(known.length) === SLASH) return known;
    const origin = originOf(req.url);
    if (origins.size >= MAX_ORIGINS) origins.clear();
    origins.set(req.host, origin);
    return origin;
  };
  return (req) => {
    const verdict = robots.peek(originOfRequest(req));
    if (verdict === undefined) return req;
    if (verdict.state === 'unavailable') {
      report(unavailableReason(verdict), req.url);
      return undefined;
    }
    if (verdict.rules.isAllowed(req.url, userAgent)) return req;
    report('robots', req.url);
    return undefined;
  };
}

/** Why an origin whose robots.txt could not be had is dropped: the SSRF guard refused it, or it failed. */
export function unavailableReason(verdict: RobotsVerdict & { state: 'unavailable' }): FilterReason {
  return verdict.code === 'private-address' ? 'private-address' : 'robots-unavailable';
}

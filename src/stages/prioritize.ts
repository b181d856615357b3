import type { OperatorFunction } from 'rxjs';
import type { CrawlRequest } from '../model/crawl-request.js';
import type { PrioritizedRequest, Prioritizer, PriorityContext } from '../frontier/prioritizer.js';
import type { Admissible } from './drop-when.js';
import { stepOperator, type AdmissionStep } from './admission-step.js';

/**
 * Gives each admitted request its priority level (SPEC §10), which picks its front queue in its
 * host's back queue. Placed after the seen-set.
 *
 * @example
 * pipe(dedup(seen, report, started, levelRose(prioritizer, ctx)), prioritize(prioritizer, ctx))
 */
export function prioritize(prioritizer: Prioritizer, ctx: PriorityContext): OperatorFunction<CrawlRequest, CrawlRequest> {
  return stepOperator(prioritizeStep(prioritizer, ctx));
}

/** {@link prioritize} as an {@link AdmissionStep}: every request passes, with its level. */
export function prioritizeStep(prioritizer: Prioritizer, ctx: PriorityContext): AdmissionStep<CrawlRequest, CrawlRequest> {
  const level = levelOf(prioritizer, ctx);
  return (req) => ({ ...req, level: level(req) });
}

/** A request's level as {@link prioritize} gives it: what the prioritizer says, within 1 to `ctx.levels`. */
export function levelOf(prioritizer: Prioritizer, ctx: PriorityContext): (req: PrioritizedRequest) => number {
  return (req) => levelIn(prioritizer(req, ctx), ctx.levels);
}

/**
 * For the seen-set: whether the link just counted raised a still-pending URL's level, so that it
 * is queued again at its new level (and its older entry skipped when pulled).
 */
export function levelRose(prioritizer: Prioritizer, ctx: PriorityContext): (a: Admissible) => boolean {
  const rose = requestLevelRose(prioritizer, ctx);
  return (a) => rose({ url: a.url, depth: a.candidate.depth });
}

/** {@link levelRose} of an admitted request (for the journal, where depth-first lets every URL found again through). */
export function requestLevelRose(prioritizer: Prioritizer, ctx: PriorityContext): (req: PrioritizedRequest) => boolean {
  const before: PriorityContext = { levels: ctx.levels, inLinks: (url) => Math.max(0, ctx.inLinks(url) - 1) };
  return (req) => levelIn(prioritizer(req, ctx), ctx.levels) > levelIn(prioritizer(req, before), ctx.levels);
}

const levelIn = (level: number, levels: number): number => Math.min(levels, Math.max(1, Math.floor(level) || 1));

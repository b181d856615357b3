import type { RecrawlPolicy } from '../model/config.js';
import type { IndexRecord } from '../model/index-record.js';
import type { PageVisit } from '../model/page-visit.js';

const HOUR_MS = 3_600_000;
/** Interval × this when a recrawl finds the page unchanged, ÷ this when changed (see docs/resume-and-recrawl.md, "Adaptive recrawl"). */
export const ADAPT_FACTOR = 1.5;

export interface RecrawlScheduleOptions {
  readonly policy: RecrawlPolicy;
  /** A new page's first interval, and every page's under the fixed policy. */
  readonly periodHours: number;
  readonly minIntervalHours: number;
  readonly maxIntervalHours: number;
  /** The crawl's clock (milliseconds since the epoch): injectable, so tests need not wait for hours. */
  readonly now: () => number;
}

/**
 * Whether a recrawl found a page unchanged: the server said so (304, `notModified`), or the body's
 * MD5 is the one the last crawl recorded, with or without validators (SPEC §10, §15). The stats and
 * the adaptive schedule both ask this.
 *
 * @example
 * isUnchanged(record, previousRecord, false) //=> true when record.contentMd5 === previousRecord.contentMd5
 */
export function isUnchanged(rec: Pick<IndexRecord, 'contentMd5'>, previous: Pick<PageVisit, 'contentMd5'> | undefined, notModified: boolean): boolean {
  return notModified || (previous !== undefined && previous.contentMd5 === rec.contentMd5);
}

/**
 * When each page is next due (SPEC §10). Fixed: every page is due at every recrawl (nothing to
 * schedule). Adaptive ({@link schedule}): each page
 * carries its own interval, divided by 1.5 when a recrawl finds it changed and multiplied by 1.5
 * when unchanged (304, or the same content MD5), clamped to [min-interval, max-interval]; a new
 * page starts at `period`. The interval and the due time travel in the page's record
 * (`fetchIntervalHours`, `nextFetch`), so the journal keeps them from one crawl to the next.
 *
 * @example
 * const s = new RecrawlSchedule({ policy: 'adaptive', periodHours: 72, minIntervalHours: 1, maxIntervalHours: 720, now: Date.now });
 * s.schedule(record, previousRecord, true).fetchIntervalHours //=> 108
 */
export class RecrawlSchedule {
  /** The earliest due time of the pages scheduled or carried over so far (ms), or undefined. */
  earliest: number | undefined;

  constructor(private readonly opts: RecrawlScheduleOptions) {}

  get adaptive(): boolean {
    return this.opts.policy === 'adaptive';
  }

  /** Whether a page of the last crawl is to be requested now: always under the fixed policy, and for records that predate the schedule. */
  isDue(rec: IndexRecord): boolean {
    return !this.adaptive || rec.nextFetch === undefined || Date.parse(rec.nextFetch) <= this.opts.now();
  }

  /** Whether a page whose last visit is `visit` is to be requested now (a shared crawl's schedule in Redis), as {@link isDue}. */
  isVisitDue(visit: PageVisit): boolean {
    return !this.adaptive || visit.nextFetch === undefined || visit.nextFetch <= this.opts.now();
  }

  /**
   * Adaptive: a page fetched now, with its next interval and due time; `previous` is its last visit
   * (its record of the last crawl, or a shared crawl's visit kept in Redis), if any; `notModified` a 304.
   */
  schedule(rec: IndexRecord, previous: Pick<PageVisit, 'contentMd5' | 'fetchIntervalHours'> | undefined, notModified: boolean): IndexRecord {
    const { hours, due } = this.next(previous === undefined ? undefined : { hours: previous.fetchIntervalHours, unchanged: isUnchanged(rec, previous, notModified) });
    return { ...rec, fetchIntervalHours: hours, nextFetch: new Date(due).toISOString() };
  }

  /** Adaptive: a page found unchanged now (a 304) whose record is elsewhere: its visit with the next interval and due time. */
  scheduleVisit(visit: PageVisit): PageVisit {
    const { hours, due } = this.next({ hours: visit.fetchIntervalHours, unchanged: true });
    return { ...visit, fetchIntervalHours: hours, nextFetch: due };
  }

  private next(last: { readonly hours: number | undefined; readonly unchanged: boolean } | undefined): { hours: number; due: number } {
    const o = this.opts;
    let hours = o.periodHours;
    if (last !== undefined) hours = last.unchanged ? (last.hours ?? o.periodHours) * ADAPT_FACTOR : (last.hours ?? o.periodHours) / ADAPT_FACTOR;
    // Clamped even at the start: a period of 0 must not make a page due again at once, for ever.
    hours = Math.min(o.maxIntervalHours, Math.max(o.minIntervalHours, hours));
    const due = o.now() + hours * HOUR_MS;
    this.note(due);
    return { hours, due };
  }

  /** Counts a page that is not requested this time (not due) towards {@link earliest}. */
  carry(rec: IndexRecord): void {
    if (rec.nextFetch !== undefined) this.note(Date.parse(rec.nextFetch));
  }

  private note(due: number): void {
    if (this.earliest === undefined || due < this.earliest) this.earliest = due;
  }
}

import type { IndexRecord } from '../model/index-record.js';
import type { PageVisit } from '../model/page-visit.js';
import type { Outcome } from '../model/outcome.js';
import { isUnchanged } from '../state/recrawl-schedule.js';

const TYPE_GROUPS: Record<string, string> = {
  html: 'text', txt: 'text', xml: 'text', json: 'text', css: 'text', js: 'text', csv: 'text',
  png: 'image', jpg: 'image', gif: 'image', svg: 'image', webp: 'image', ico: 'image', bmp: 'image',
  pdf: 'document', doc: 'document', docx: 'document', xls: 'document', xlsx: 'document', ppt: 'document', pptx: 'document', rtf: 'document', odt: 'document', ps: 'document',
};

function bump(map: Map<string, number>, key: string, by = 1): void {
  map.set(key, (map.get(key) ?? 0) + by);
}

const sorted = (map: Map<string, number>, top = Infinity): Record<string, number> =>
  Object.fromEntries([...map].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, top));

/** Upper bounds (ms) of the fetch-duration ranges (the report's chart, the metrics' histogram); the last range is everything above. */
export const DURATION_BOUNDS_MS: readonly number[] = [10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000];

/** Documents by fetch duration: a count per range of {@link DURATION_BOUNDS_MS} (one more for above), and the sum. */
export interface DurationCounts {
  readonly counts: readonly number[];
  readonly sumMs: number;
}

/** The counters as stats.json has them. */
export type CrawlSummary = ReturnType<CrawlStats['summary']>;

/**
 * The crawl's counters: documents by type, type group, status and host; bytes; failures by code;
 * URLs dropped by reason. Fed by outcomes and by the admission stages' drop reports.
 *
 * @example
 * stats.record(outcome); stats.dropped('duplicate'); stats.summary().documents //=> 1
 */
export class CrawlStats {
  documents = 0;
  indexed = 0;
  truncated = 0;
  duplicates = 0;
  bytes = 0;
  redirects = 0;
  retries = 0;
  failures = 0;
  /** Requests in flight when the crawl stopped, put back as pending. */
  returned = 0;
  readonly startedAt = Date.now();
  private readonly byType = new Map<string, number>();
  private readonly byGroup = new Map<string, number>();
  private readonly byStatus = new Map<string, number>();
  private readonly byHost = new Map<string, number>();
  private readonly failuresByCode = new Map<string, number>();
  private readonly droppedByReason = new Map<string, number>();
  private readonly recrawl = { new: 0, changed: 0, unchanged: 0, gone: 0 };
  /** Sitemaps read, missing (4xx), and the URLs they listed. */
  private readonly sitemaps = { read: 0, missing: 0, urls: 0 };
  private readonly durationCounts = new Array<number>(DURATION_BOUNDS_MS.length + 1).fill(0);
  private durationSumMs = 0;

  /** `previous` gives the last crawl's record of a page, to sort a recrawl's documents into new / changed / unchanged / gone. */
  constructor(private readonly previous: (url: string) => Pick<PageVisit, 'contentMd5'> | undefined = () => undefined) {}

  /** Counts one outcome. */
  record(out: Outcome): void {
    switch (out.kind) {
      case 'document':
        this.documents++;
        if (out.indexed) this.indexed++;
        if (out.truncated) this.truncated++;
        if (out.doc.duplicateOf !== null) this.duplicates++;
        this.bytes += out.bytes;
        bump(this.byType, out.doc.type);
        bump(this.byGroup, TYPE_GROUPS[out.doc.type] ?? 'other');
        bump(this.byStatus, String(out.status));
        bump(this.byHost, out.req.host);
        this.timed(out.durationMs);
        this.countRecrawl(out.record, out.req.url, out.unchanged);
        break;
      case 'revalidated':
        // A page answered 304, as a recrawl's kept document is counted; its record is in another repository.
        this.documents++;
        bump(this.byStatus, String(out.status));
        bump(this.byHost, out.req.host);
        this.recrawl.unchanged++;
        break;
      case 'redirect':
        this.redirects++;
        bump(this.byStatus, String(out.status));
        break;
      case 'retry':
        this.retries++;
        break;
      case 'sitemap':
        if (out.status >= 400) this.sitemaps.missing++;
        else this.sitemaps.read++;
        this.sitemaps.urls += out.urls;
        break;
      case 'unfinished':
        this.returned++;
        break;
      case 'skipped':
        bump(this.droppedByReason, out.reason);
        break;
      case 'failed':
        this.failures++;
        bump(this.failuresByCode, out.code);
        if (out.status !== undefined) bump(this.byStatus, String(out.status));
        if ((out.status === 404 || out.status === 410) && this.previous(out.req.url) !== undefined) this.recrawl.gone++;
        break;
    }
  }

  private timed(ms: number): void {
    let range = 0;
    while (range < DURATION_BOUNDS_MS.length && ms >= DURATION_BOUNDS_MS[range]!) range++;
    this.durationCounts[range]!++;
    this.durationSumMs += ms;
  }

  /** Documents by fetch duration, so far. */
  durations(): DurationCounts {
    return { counts: [...this.durationCounts], sumMs: this.durationSumMs };
  }

  /** Failures by code and URLs dropped by reason, so far (unsorted: for the metrics). */
  failuresByCodeAndDrops(): { readonly failures: ReadonlyMap<string, number>; readonly dropped: ReadonlyMap<string, number> } {
    return { failures: this.failuresByCode, dropped: this.droppedByReason };
  }

  /** A page the last crawl did not have is new; one it had is unchanged when a 304 or the same content MD5 says so. */
  private countRecrawl(rec: IndexRecord, url: string, notModified: boolean): void {
    const previous = notModified ? undefined : this.previous(url);
    if (!notModified && previous === undefined) this.recrawl.new++;
    else this.recrawl[isUnchanged(rec, previous, notModified) ? 'unchanged' : 'changed']++;
  }

  /** What a recrawl found: new, changed, unchanged and gone pages. */
  recrawlSummary(): { new: number; changed: number; unchanged: number; gone: number } {
    return { ...this.recrawl };
  }

  /** Counts one URL dropped, by its reason. */
  dropped(reason: string): void {
    bump(this.droppedByReason, reason);
  }

  /** The counters as stats.json writes them. */
  summary(now = Date.now()) {
    const seconds = (now - this.startedAt) / 1000;
    const usage = process.resourceUsage();
    return {
      documents: this.documents,
      indexed: this.indexed,
      truncated: this.truncated,
      duplicates: this.duplicates,
      bytes: this.bytes,
      seconds: Math.round(seconds * 1000) / 1000,
      pagesPerSecond: seconds > 0 ? Math.round((this.documents / seconds) * 10) / 10 : 0,
      redirects: this.redirects,
      retries: this.retries,
      failures: this.failures,
      returned: this.returned,
      byGroup: sorted(this.byGroup),
      byType: sorted(this.byType),
      byStatus: sorted(this.byStatus),
      topHosts: sorted(this.byHost, 10),
      failuresByCode: sorted(this.failuresByCode),
      droppedByReason: sorted(this.droppedByReason),
      sitemaps: { ...this.sitemaps },
      cpuSeconds: Math.round((usage.userCPUTime + usage.systemCPUTime) / 1000) / 1000,
      peakRssMb: Math.round(usage.maxRSS / 1024),
    };
  }
}

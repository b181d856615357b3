/**
 * tarantula as a library, for pipeline authors: the crawl loop, the default spec and sinks, every
 * stage of the crawl as an RxJS operator, the model types, and configuration loading. A pipeline
 * file default-exports {@link definePipeline}(…); `tarantula run FILE` runs it (see pipelines/ and
 * docs/library.md). The building blocks below the stages (URL normalization, parsers, robots.txt, the
 * fetcher, the mirror, PageRank) are in `tarantula/parts`.
 *
 * @packageDocumentation
 */
export { crawl, type CrawlSpec, type Release } from './engine/crawl.js';
export { createCrawlContext, type Admission, type CrawlContext, type CrawlContextOptions, type Documents, type HostPolicy, type SharedParts } from './engine/crawl-context.js';
export type { Fetcher, NetworkHooks } from './engine/fetcher.js';
export { defaultAdmit, defaultSpec, defaultUnit, failSafe, seedsOf, type AdmitStages, type DefaultSpecOptions, type UnitStages } from './engine/default-spec.js';
export { defaultPipeline, defaultSinks } from './engine/default-pipeline.js';
export { definePipeline, type CrawlSinks, type CrawlStop, type Pipeline } from './engine/pipeline.js';
export { runCrawl, type CrawlWorker, type RunCrawlOptions, type RunCrawlResult } from './app/run-crawl.js';

export type { CrawlerConfig, IndexFormat, RecrawlPolicy, ResolveEntry, ScopeMode, Traversal } from './model/config.js';
export type { Candidate, CrawlRequest } from './model/crawl-request.js';
export type { FetchResponse, Validators, WireExchange } from './model/fetch-response.js';
export { FILTER_REASONS, type DropReport, type FilterReason } from './model/filter-reason.js';
export type { IndexLink, IndexRecord } from './model/index-record.js';
export { isOutcome, linksOf, type DocumentInfo, type Fetched, type InProgress, type Outcome, type Parsed, type UnitValue } from './model/outcome.js';
export { endOf, type RequestEnd } from './model/request-end.js';

export { normalizeLinks } from './stages/normalize-links.js';
export { trapLimits, type TrapLimits } from './stages/trap-limits.js';
export { refusePrivateHosts } from './stages/refuse-private-hosts.js';
export { followPolicy } from './stages/follow-policy.js';
export { countInLinks } from './stages/count-in-links.js';
export { dedup } from './stages/dedup.js';
export { prioritize } from './stages/prioritize.js';
export { hostLimit } from './stages/host-limit.js';
export { robotsAllowed } from './stages/robots-allowed.js';
export { journalAdmissions } from './stages/journal-admissions.js';
export type { Admissible } from './stages/drop-when.js';

export { passOutcomes } from './stages/pass-outcomes.js';
export { obeyRobots, type ObeyRobotsOptions } from './stages/obey-robots.js';
export { fetchPage, type FetchPageOptions } from './stages/fetch-page.js';
export { readSitemaps } from './stages/read-sitemaps.js';
export { reuseStored } from './stages/reuse-stored.js';
export { parseDocument, type NearDuplicates, type ParseDocumentOptions } from './stages/parse-document.js';
export { storeDocument } from './stages/store-document.js';
export { describeAndStore } from './stages/describe-and-store.js';
export { scheduleRecrawl } from './stages/schedule-recrawl.js';

export { recordStats } from './sinks/record-stats.js';
export { logOutcomes } from './sinks/log-outcomes.js';
export { journalOutcomes } from './sinks/journal-outcomes.js';
export { writeIndex } from './sinks/write-index.js';
export type { CrawlStats, CrawlSummary } from './sinks/crawl-stats.js';

export { hostFrontier, type DelayPolicy, type Frontier, type FrontierOptions } from './frontier/host-frontier.js';
export { fingerprintSet, type SeenSet } from './frontier/seen-set.js';
export { defaultPrioritizer, type PrioritizedRequest, type Prioritizer, type PriorityContext } from './frontier/prioritizer.js';
export type { InLinkCounts } from './frontier/in-link-counts.js';

export { loadConfig } from './config/load-config.js';
export { ConfigError } from './config/config-error.js';
export { createLogger, type CrawlLogger } from './log/create-logger.js';
export { IndexWriter, type IndexWriterOptions } from './output/index-writer.js';
export type { CrawlState, KnownPage } from './state/crawl-state.js';
export type { JournalWriter } from './state/journal-writer.js';

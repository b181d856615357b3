/**
 * tarantula as a library: every stage of the crawl is an RxJS operator, composed by `crawl()` and
 * the default spec; a pipeline file recombines them (see pipelines/ and the README).
 */
export { crawl, type CrawlSpec } from './engine/crawl.js';
export { createCrawlContext, type CrawlContext, type NetworkHooks } from './engine/crawl-context.js';
export { defaultAdmit, defaultSpec, defaultUnit, failSafe, seedsOf } from './engine/default-spec.js';
export { definePipeline, type CrawlSinks, type CrawlStop, type Pipeline } from './engine/pipeline.js';
export { defaultPipeline, runCrawl, EXIT, type RunCrawlOptions, type RunCrawlResult } from './app/run-crawl.js';
export { CrawlStats } from './sinks/crawl-stats.js';
export type { DocumentInfo, Fetched, Outcome, Parsed, UnitValue } from './model/outcome.js';
export { linksOf } from './model/outcome.js';

export type { Candidate, CrawlRequest } from './model/crawl-request.js';
export { hostFrontier, type DelayPolicy, type Frontier, type FrontierOptions } from './frontier/host-frontier.js';
export { Politeness, type PolitenessOptions } from './frontier/politeness.js';
export { fingerprintSet, type SeenSet } from './frontier/seen-set.js';
export { FrontQueues } from './frontier/front-queues.js';
export { defaultPrioritizer, type PrioritizedRequest, type Prioritizer, type PriorityContext } from './frontier/prioritizer.js';
export { inLinkCounts, type InLinkCounts } from './frontier/in-link-counts.js';
export { NearDuplicateIndex } from './frontier/near-duplicate-index.js';

export { dedup } from './stages/dedup.js';
export { countInLinks } from './stages/count-in-links.js';
export { levelRose, prioritize } from './stages/prioritize.js';
export { fetchPage, type FetchPageOptions } from './stages/fetch-page.js';
export { followPolicy } from './stages/follow-policy.js';
export { hostLimit } from './stages/host-limit.js';
export { journalAdmissions } from './stages/journal-admissions.js';
export { linkPolicy, type LinkPolicy } from './url/link-policy.js';
export { normalizeLinks } from './stages/normalize-links.js';
export { refusePrivateHosts } from './stages/refuse-private-hosts.js';
export { obeyRobots, type ObeyRobotsOptions } from './stages/obey-robots.js';
export { parseDocument, type ParseDocumentOptions } from './stages/parse-document.js';
export { readSitemaps } from './stages/read-sitemaps.js';
export { reuseStored } from './stages/reuse-stored.js';
export { robotsAllowed } from './stages/robots-allowed.js';
export { storeDocument } from './stages/store-document.js';
export { trapLimits, type TrapLimits } from './stages/trap-limits.js';
export { dropWhen, type Admissible } from './stages/drop-when.js';
export { type DropReport } from './model/filter-reason.js';

export { journalOutcomes } from './sinks/journal-outcomes.js';
export { logOutcomes } from './sinks/log-outcomes.js';
export { recordStats } from './sinks/record-stats.js';
export { writeIndex } from './sinks/write-index.js';

export type { CrawlerConfig, IndexFormat, ResolveEntry, ScopeMode, Traversal } from './model/config.js';
export { ConfigError } from './config/config-error.js';
export { loadConfig } from './config/load-config.js';
export { parseArgs, type ParsedArgs } from './config/parse-args.js';
export { DEFAULT_CONFIG } from './config/keys.js';
export { createLogger, type CrawlLogger } from './log/create-logger.js';

export { fetchDocument, type FetchOptions } from './fetch/fetch-document.js';
export { type FetchResponse, type Validators, type WireExchange } from './model/fetch-response.js';
export { createDispatcher, type DispatcherOptions } from './fetch/create-dispatcher.js';
export { addressClass, type AddressClass } from './fetch/address-class.js';
export { addressGuard, PrivateAddressError, type AddressGuard } from './fetch/address-guard.js';
export { proxySettings, type ProxySettings } from './fetch/proxy-settings.js';
export { FetchError } from './fetch/fetch-error.js';
export { RobotsCache, type RobotsVerdict } from './robots/robots-cache.js';
export { readSitemap, type SitemapContents, type SitemapUrl } from './sitemap/read-sitemap.js';
export { WarcArchive, archiveOf, type WarcArchiveOptions } from './archive/warc-archive.js';
export { parseRobotsTxt, productToken, RobotsTxt } from './robots/robots-txt.js';

export { normalizeUrl, type NormalizeOptions } from './url/normalize-url.js';
export { growingScope, makeScope, type GrowingScope } from './url/scope.js';
export { inputSeeds, openSeedInputs, type InputSeedOptions, type SeedInput } from './input/input-seeds.js';
export { seedLine, type SeedLine } from './input/seed-line.js';
export { makeListFilter } from './url/url-lists.js';
export { urlMd5 } from './url/url-md5.js';
export { FILTER_REASONS, type FilterReason } from './model/filter-reason.js';

export { detectType, isTextual } from './parse/detect-type.js';
export { decodeText } from './parse/encoding-label.js';
export { extractHtml, type ExtractedLink, type HtmlExtract } from './parse/extract-html.js';
export { sniffEncoding } from './parse/sniff-encoding.js';
export { hammingDistance, SimHasher } from './parse/simhash.js';

export { MirrorStore } from './store/mirror-store.js';
export { mirrorPath } from './store/mirror-path.js';
export { IndexWriter } from './output/index-writer.js';
export { readIndex, type IndexEntry } from './output/read-index.js';
export { FORMATTERS } from './output/formats.js';
export type { IndexLink, IndexRecord } from './model/index-record.js';
export { openCrawlState, type CrawlState, type KnownPage } from './state/crawl-state.js';
export { LinkGraphBuilder, type LinkGraph } from './pagerank/link-graph.js';
export { pagerank, type PagerankOptions, type PagerankResult } from './pagerank/pagerank.js';
export { rankPages, type RankedPage } from './pagerank/rank-pages.js';
export { formatRanking, type RankingFormat } from './pagerank/format-ranking.js';

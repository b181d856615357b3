/**
 * The building blocks under tarantula's stages, for code that needs one on its own: URL rules,
 * parsers, robots.txt, the fetcher, the frontier's parts, the mirror and the index, the crawl
 * state, WARC, sitemaps, seed inputs and PageRank. `import { normalizeUrl } from 'tarantula/parts'`.
 * Pipelines need only `tarantula`.
 *
 * @packageDocumentation
 */
export { normalizeUrl, type NormalizeOptions } from './url/normalize-url.js';
export { growingScope, makeScope, type GrowingScope, type ScopePredicate } from './url/scope.js';
export { makeListFilter, type ListFilter } from './url/url-lists.js';
export { linkPolicy, linkPolicySource, type LinkPolicy, type LinkPolicySource } from './url/link-policy.js';
export { urlMd5 } from './url/url-md5.js';

export { detectType, isTextual } from './parse/detect-type.js';
export { decodeText } from './parse/encoding-label.js';
export { extractHtml, type ExtractedLink, type HtmlExtract } from './parse/extract-html.js';
export { sniffEncoding } from './parse/sniff-encoding.js';
export { hammingDistance, SimHasher } from './parse/simhash.js';

export { parseRobotsTxt, productToken, RobotsTxt } from './robots/robots-txt.js';
export { RobotsCache, type RobotsVerdict } from './robots/robots-cache.js';
export { readSitemap, type SitemapContents, type SitemapUrl } from './sitemap/read-sitemap.js';

export { fetchDocument, type FetchOptions } from './fetch/fetch-document.js';
export { createDispatcher, type DispatcherOptions } from './fetch/create-dispatcher.js';
export { addressClass, type AddressClass } from './fetch/address-class.js';
export { addressGuard, PrivateAddressError, type AddressGuard } from './fetch/address-guard.js';
export { proxySettings, type ProxySettings } from './fetch/proxy-settings.js';
export { FetchError } from './fetch/fetch-error.js';
export { ENDED, ENDED_WITH_DOCUMENT } from './model/request-end.js';

export { Politeness, type PolitenessOptions } from './frontier/politeness.js';
export { FrontQueues } from './frontier/front-queues.js';
export { inLinkCounts } from './frontier/in-link-counts.js';
export { NearDuplicateIndex } from './frontier/near-duplicate-index.js';
export { ContentSeen } from './frontier/content-seen.js';
export { levelRose } from './stages/prioritize.js';
export { dropWhen } from './stages/drop-when.js';

export { MirrorStore } from './store/mirror-store.js';
export { mirrorPath } from './store/mirror-path.js';
export { readIndex, type IndexEntry } from './output/read-index.js';
export { openCrawlState } from './state/crawl-state.js';
export { CrawlStats } from './sinks/crawl-stats.js';
export { WarcArchive, archiveOf, type WarcArchiveOptions } from './archive/warc-archive.js';
export { inputSeeds, openSeedInputs, type InputSeedOptions, type SeedInput } from './input/input-seeds.js';
export { seedLine, type SeedLine } from './input/seed-line.js';
export { EXIT } from './app/exit-status.js';

export { LinkGraphBuilder, type LinkGraph } from './pagerank/link-graph.js';
export { pagerank, type PagerankOptions, type PagerankResult } from './pagerank/pagerank.js';
export { rankPages, type RankedPage } from './pagerank/rank-pages.js';
export { formatRanking, type RankingFormat } from './pagerank/format-ranking.js';

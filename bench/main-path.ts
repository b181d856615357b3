/**
 * The main thread's share of a page, piece by piece, for one build (its `dist/`, so that two builds
 * can be compared in the same minutes): the CPU (user + system of this process) that
 *
 * - the fetch path takes a request: `createDispatcher` and `fetchDocument` against the synthetic
 *   web in a child process (its CPU is not counted), 16 hosts with one request in flight each;
 * - the unit's RxJS takes a page: a request through five `passOutcomes` stages, one of them
 *   asynchronous, as the default unit's are;
 * - admission takes a page: its 18 links, normalized and vetted as the document worker sends them
 *   (a structured clone of the list), through the default admission checks with 4 priority levels.
 *
 *   npx tsx bench/main-path.ts [--build DIR] [--pages 20000] [--requests 20000] [--parts fetch,unit,admission]
 *
 * `--build` is a checkout with `npm run build` done (default: this one); `--parts fetch` alone runs
 * on builds older than admission's current stages. Each part runs once untimed (2,000 pages or
 * requests) so that the code is optimized before it is measured.
 */
import { setMaxListeners } from 'node:events';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { from, lastValueFrom, of, pipe, toArray, type Observable, type OperatorFunction } from 'rxjs';
import { startChildServer } from './child-server.js';
import { hostOf, pageUrl, type SyntheticWeb } from './synthetic-web.js';

const value = (name: string): string | undefined => {
  const at = process.argv.indexOf(name);
  return at >= 0 ? process.argv[at + 1] : undefined;
};
const build = resolve(value('--build') ?? '.');
const pages = Number(value('--pages') ?? 20_000);
const requests = Number(value('--requests') ?? 20_000);
const parts = (value('--parts') ?? 'fetch,unit,admission').split(',');
const WARM = 2_000;

// The build's own modules, whatever this checkout's sources say: any is what a build of another day gives.
/* eslint-disable @typescript-eslint/no-explicit-any */
const load = (path: string): Promise<any> => import(pathToFileURL(`${build}/dist/${path}.js`).href);
const modules = (dir: string, names: readonly string[]): Promise<any> => Promise.all(names.map((n) => load(`${dir}/${n}`))).then((mods) => Object.assign({}, ...mods));

const cpuMicros = (): number => {
  const { user, system } = process.cpuUsage();
  return user + system;
};
/** CPU µs a call of `once(i)` for i in [from, to), after a warm-up of WARM calls. */
async function perCall(count: number, once: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < WARM; i++) await once(i);
  const before = cpuMicros();
  for (let i = WARM; i < WARM + count; i++) await once(i);
  return (cpuMicros() - before) / count;
}

const web: SyntheticWeb = { pages: pages + WARM, hosts: 50, port: 80 };

// The fetch path, against the synthetic web in a child process.
async function fetchPart(): Promise<number> {
  const { createDispatcher } = await load('fetch/create-dispatcher');
  const { fetchDocument } = await load('fetch/fetch-document');
  const server = await startChildServer('synthetic-web.ts', ['--pages', String(requests + WARM + 16), '--hosts', '16']);
  const served: SyntheticWeb = { pages: requests + WARM + 16, hosts: 16, port: server.port };
  const hosts = Array.from({ length: 16 }, (_, h) => hostOf(h, served));
  const dispatcher = createDispatcher({ resolve: hosts.map((host) => ({ host, port: server.port, address: '127.0.0.1' })), connectTimeoutMs: 10_000, connectionsPerOrigin: 1 });
  // The crawl's stop signal, which every request in flight listens to.
  const stop = new AbortController();
  setMaxListeners(64, stop.signal);
  const fetchOptions = { dispatcher, userAgent: 'tarantula/1.0', headerTimeoutMs: 10_000, bodyTimeoutMs: 10_000, downloadTimeoutMs: 60_000, maxBodySize: 10_485_760, maxDecodedSize: 52_428_800, signal: stop.signal };
  /** `count` requests, 16 at a time (one a host), page i on its own host. */
  async function fetchAll(first: number, count: number): Promise<void> {
    let next = first;
    await Promise.all(
      hosts.map(async (_, h) => {
        for (let i = next; i < first + count; i = next) {
          next++;
          const res = await fetchDocument(pageUrl(i - (i % 16) + h, served), fetchOptions);
          if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
        }
      }),
    );
  }
  await fetchAll(0, WARM);
  const before = cpuMicros();
  await fetchAll(WARM, requests);
  const perRequest = (cpuMicros() - before) / requests;
  await dispatcher.close();
  await server.stop();
  return perRequest;
}

// The unit's RxJS: five passOutcomes stages, the second one asynchronous as the fetch is.
async function unitPart(): Promise<number> {
  const { passOutcomes } = await load('stages/pass-outcomes');
  const unit = pipe(...([0, 1, 2, 3, 4].map((s) => passOutcomes((v: unknown) => (s === 1 ? Promise.resolve(v) : v))) as [OperatorFunction<unknown, unknown>]));
  const values = Array.from({ length: WARM + pages }, (_, i) => ({ url: pageUrl(i, web) }));
  return perCall(pages, (i) => lastValueFrom((of(values[i]) as Observable<unknown>).pipe(unit)));
}

// Admission: the checks of defaultAdmit, in its order, on links of a synthetic web's shape.
async function admissionPart(): Promise<number> {
  const stages = await modules('stages', ['normalize-links', 'trap-limits', 'refuse-private-hosts', 'follow-policy', 'count-in-links', 'dedup', 'prioritize', 'host-limit', 'robots-allowed']);
  const frontier = await modules('frontier', ['seen-set', 'in-link-counts', 'prioritizer']);
  const { linkPolicy } = await load('url/link-policy');
  const { RobotsCache } = await load('robots/robots-cache');
  const { addressGuard } = await load('fetch/address-guard');
  const report = (): void => undefined;
  const inLinks = frontier.inLinkCounts();
  const priority = { levels: 4, inLinks: (u: string) => inLinks.get(u) };
  const started = frontier.fingerprintSet();
  const policy = linkPolicy({ scope: 'host-scope', seeds: [pageUrl(0, web)], accept: [], reject: [] });
  const robotsCache = new RobotsCache({ fetch: () => Promise.reject(new Error('not fetched')), userAgent: 'tarantula/1.0', ttlMs: 3_600_000 });
  const guard = addressGuard({ allowPrivate: false, trustedHosts: [] });
  const levelRose = stages.levelRose(frontier.defaultPrioritizer, priority);
  const steps = await load('stages/admission-step').catch(() => undefined);
  // As defaultAdmit runs them: one chain of steps where the build has them, else an operator a check.
  const admit: OperatorFunction<unknown, unknown> = steps ? steps.stepOperator([
    stages.normalizeLinksStep(report),
    stages.trapLimitsStep({ maxUrlLength: 2048, maxPathRepetition: 3, maxDepth: 0 }, report),
    stages.refusePrivateHostsStep(guard, [], report),
    stages.followPolicyStep(policy, report),
    stages.countInLinksStep(inLinks),
    // Builds with levelOf give each request its level as dedup makes it, as defaultAdmit does.
    ...(stages.levelOf
      ? [stages.dedupStep(frontier.fingerprintSet(), report, started, levelRose, stages.levelOf(frontier.defaultPrioritizer, priority))]
      : [stages.dedupStep(frontier.fingerprintSet(), report, started, levelRose), stages.prioritizeStep(frontier.defaultPrioritizer, priority)]),
    stages.hostLimitStep(0, new Map(), report),
    stages.robotsAllowedStep(robotsCache, 'tarantula/1.0', report),
  ].reduce((f, g) => steps.andThen(f, g))) : pipe(
    stages.normalizeLinks(report),
    stages.trapLimits({ maxUrlLength: 2048, maxPathRepetition: 3, maxDepth: 0 }, report),
    stages.refusePrivateHosts(guard, [], report),
    stages.followPolicy(policy, report),
    stages.countInLinks(inLinks),
    stages.dedup(frontier.fingerprintSet(), report, started, levelRose),
    stages.prioritize(frontier.defaultPrioritizer, priority),
    stages.hostLimit(0, new Map(), report),
    stages.robotsAllowed(robotsCache, 'tarantula/1.0', report),
  );
  /** Page i's 18 links as the worker sends them (a structured clone: flat strings): normalized, vetted, some seen before. */
  const linksOf = (i: number): unknown[] =>
    structuredClone(Array.from({ length: 18 }, (_, k) => {
      const target = pageUrl((i * 7 + k * 131) % web.pages, web);
      return { href: target, url: target, base: pageUrl(i, web), depth: 1, vetted: true };
    }));
  const lists = Array.from({ length: WARM + pages }, (_, i) => linksOf(i));
  return perCall(pages, (i) => lastValueFrom(from(lists[i]!).pipe(admit, toArray())));
}

const f = (n: number): string => n.toFixed(1);
console.log(`build ${build}, node ${process.version}, load average ${f(loadavg()[0]!)}`);
if (parts.includes('fetch')) console.log(`  fetch path      ${f(await fetchPart())} µs a request (${requests} requests)`);
if (parts.includes('unit')) console.log(`  unit RxJS       ${f(await unitPart())} µs a page`);
if (parts.includes('admission')) console.log(`  admission       ${f(await admissionPart())} µs a page (18 links)`);

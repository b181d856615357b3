import { readdirSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_CONF, DEMO_HOSTS } from '../../src/demo/demo-web.js';
import { startFixtureServer, type FixtureHooks, type FixtureRequest, type FixtureServer } from '../../src/demo/fixture-server.js';
import { portLinks } from '../../src/demo/port-links.js';
import { runCli, resolveFlags, type CliOptions, type CliResult } from './run-cli.js';

/** The small fixture webs of the end-to-end tests: `fixtures/e2e/NAME/HOST/PATH` (see the README there). */
export const E2E_ROOT = fileURLToPath(new URL('../../fixtures/e2e/', import.meta.url));

/** Politeness delays off, so that a crawl of a loopback web takes milliseconds per page. */
export const NO_DELAYS: readonly string[] = ['--delay-factor', '0', '--min-delay', '0', '--max-delay', '0'];

/**
 * No sitemaps: the tests of other features read the server's request log exactly, where the sitemaps
 * a robots.txt names would be more requests (test/crawl-sitemaps.test.ts is about sitemaps).
 */
export const NO_SITEMAPS: readonly string[] = ['--sitemaps', 'false'];

/** A finished `tarantula crawl`, and what the server saw of it. */
export interface CrawlRun extends CliResult {
  /** The requests of this run, in order of arrival. */
  readonly requests: FixtureRequest[];
  /** The same as `host/path`, robots.txt left out. */
  readonly pages: string[];
}

/** A fixture server for one web, with the host names the crawl must resolve to it. */
export interface E2eWeb {
  readonly server: FixtureServer;
  /** The host folders of the web (plus any extra names a hook answers for). */
  readonly hosts: readonly string[];
  /** `http://HOST:PORT/PATH`. */
  url(host: string, path?: string): string;
  /** `--resolve` flags for every host. */
  resolve(): string[];
  /**
   * Runs `tarantula crawl ARGS` with every host resolved to the server, no politeness delays
   * (ARGS may set other delays) and no sitemaps (unless ARGS set `--sitemaps`).
   * Unless ARGS set one, each run gets a user agent of its own (`tarantula/e2e-N`, the same robots.txt
   * name), which tells its requests apart from those of runs going on at the same time.
   */
  crawl(args: readonly string[], opts?: CliOptions): Promise<CrawlRun>;
  close(): Promise<void>;
}

let runs = 0;

/**
 * Serves `fixtures/e2e/NAME` (or another root) on 127.0.0.1 with its request log.
 *
 * @example
 * const web = await startWeb('order');
 * (await web.crawl(['--seed', web.url('tree.test'), '--threads', '1'])).pages //=> ['tree.test/', 'tree.test/a/', ...]
 */
export async function startWeb(name: string, opts: { root?: string; hooks?: FixtureHooks; extraHosts?: readonly string[] } = {}): Promise<E2eWeb> {
  const root = opts.root ?? join(E2E_ROOT, name);
  const hosts = [...hostFolders(root), ...(opts.extraHosts ?? [])];
  const server = await startFixtureServer({ root, ...(opts.hooks ? { hooks: opts.hooks } : {}) });
  const resolve = (): string[] => resolveFlags(hosts, server.port);
  return {
    server,
    hosts,
    url: (host, path = '/') => server.url(host, path),
    resolve,
    crawl: async (args, cliOpts) => {
      const agent = args.includes('--user-agent') ? undefined : `tarantula/e2e-${++runs}`;
      const sitemaps = args.includes('--sitemaps') ? [] : NO_SITEMAPS;
      const result = await runCli(['crawl', ...NO_DELAYS, ...sitemaps, ...args, ...resolve(), ...(agent ? ['--user-agent', agent] : [])], cliOpts);
      const requests = agent ? server.requests.filter((r) => r.headers['user-agent'] === agent) : [...server.requests];
      return { ...result, requests, pages: requests.filter((r) => r.path !== '/robots.txt').map((r) => r.host + r.path) };
    },
    close: () => server.close(),
  };
}

/** The folders of a fixture root that name hosts. */
export function hostFolders(root: string): string[] {
  return readdirSync(root, { withFileTypes: true })
    .filter((e) => e.isDirectory() && /^[a-z0-9.-]+$/.test(e.name))
    .map((e) => e.name);
}

/** The stats.json a crawl wrote into its repository. */
export async function readStats(repository: string): Promise<{ documents: number; droppedByReason: Record<string, number>; [k: string]: unknown }> {
  return JSON.parse(await readFile(join(repository, 'stats.json'), 'utf8')) as Awaited<ReturnType<typeof readStats>>;
}

/**
 * Writes `dir/demo.conf`: the demo crawl's configuration (fixtures/demo/Crawler.conf) with the
 * server's port in its seeds, as `tarantula demo` does; its repository is ./demo-output of the cwd.
 */
export async function writeDemoConf(dir: string, port: number): Promise<string> {
  const text = await readFile(DEMO_CONF, 'utf8');
  const path = join(dir, 'demo.conf');
  await writeFile(path, portLinks(DEMO_HOSTS, port)(text));
  return path;
}

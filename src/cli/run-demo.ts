import type { ConfigOverrides } from '../config/build-config.js';
import { loadConfig } from '../config/load-config.js';
import { DEMO_CONF, DEMO_HOSTS, DEMO_ROOT, demoResolve } from '../demo/demo-web.js';
import { startFixtureServer } from '../demo/fixture-server.js';
import { portLinks } from '../demo/port-links.js';
import { flushLogger } from '../log/create-logger.js';
import { openLog } from './open-log.js';
import { crawlAndReport, type CrawlAndReportOptions } from './crawl-and-report.js';

/** The demo web's port, fixed so that a second `npm start` recrawls the same URLs; any free port if taken. */
const DEMO_PORT = 47613;

/**
 * `tarantula demo`: serves the bundled fixture web (fixtures/demo) on 127.0.0.1, points its host
 * names at it as `--resolve` would, crawls it with fixtures/demo/Crawler.conf (flags still
 * override), and says where the mirror and the index are (and the report, with `--report`).
 *
 * @example
 * await runDemo({}) //=> 0, with ./demo-output/index.txt written
 */
export async function runDemo(overrides: ConfigOverrides, opts: Pick<CrawlAndReportOptions, 'report'> = { report: false }): Promise<number> {
  const server = await startFixtureServer({ root: DEMO_ROOT, port: DEMO_PORT }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'EADDRINUSE') return startFixtureServer({ root: DEMO_ROOT });
    throw err;
  });
  try {
    const withPort = portLinks(DEMO_HOSTS, server.port);
    const loaded = await loadConfig(DEMO_CONF, { ...overrides, resolve: [...demoResolve(server.port), ...(overrides.resolve ?? [])] });
    const config = { ...loaded.config, startingPoints: loaded.config.startingPoints.map(withPort) };
    const log = await openLog(config);
    for (const warning of loaded.warnings) log.warn(warning);
    log.info({ port: server.port, hosts: DEMO_HOSTS }, 'demo web serving on 127.0.0.1');
    const exitCode = await crawlAndReport(config, log, { ...opts, summary: true });
    await flushLogger(log);
    return exitCode;
  } finally {
    await server.close();
  }
}

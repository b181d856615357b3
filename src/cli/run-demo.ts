import { join, resolve } from 'node:path';
import type { ConfigOverrides } from '../config/build-config.js';
import { loadConfig } from '../config/load-config.js';
import { DEMO_CONF, DEMO_HOSTS, DEMO_ROOT, demoResolve } from '../demo/demo-web.js';
import { startFixtureServer } from '../demo/fixture-server.js';
import { portLinks } from '../demo/port-links.js';
import { createLogger, flushLogger } from '../log/create-logger.js';
import { runCrawl } from '../engine/run-crawl.js';

/** The demo web's port, fixed so that a second `npm start` recrawls the same URLs; any free port if taken. */
const DEMO_PORT = 47613;

/**
 * `tarantula demo`: serves the bundled fixture web (fixtures/demo) on 127.0.0.1, points its host
 * names at it as `--resolve` would, crawls it with fixtures/demo/Crawler.conf (flags still
 * override), and says where the mirror and the index are.
 *
 * @example
 * await runDemo({}) //=> 0, with ./demo-output/index.txt written
 */
export async function runDemo(overrides: ConfigOverrides): Promise<number> {
  const server = await startFixtureServer({ root: DEMO_ROOT, port: DEMO_PORT }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'EADDRINUSE') return startFixtureServer({ root: DEMO_ROOT });
    throw err;
  });
  try {
    const withPort = portLinks(DEMO_HOSTS, server.port);
    const loaded = await loadConfig(DEMO_CONF, { ...overrides, resolve: [...demoResolve(server.port), ...(overrides.resolve ?? [])] });
    const config = { ...loaded.config, startingPoints: loaded.config.startingPoints.map(withPort) };
    const log = createLogger(config);
    for (const warning of loaded.warnings) log.warn(warning);
    log.info({ port: server.port, hosts: DEMO_HOSTS }, 'demo web serving on 127.0.0.1');
    const { exitCode, ctx } = await runCrawl(config, log, { stdout: process.stdout, handleSignals: true });
    await flushLogger(log);
    const repo = resolve(config.repository);
    const s = ctx.stats.summary();
    process.stderr.write(
      `\ntarantula demo: ${s.documents} documents (${s.indexed} indexed) in ${s.seconds} s, ${s.failures} failures\n` +
        `  mirror: ${repo}/\n  index:  ${join(repo, 'index.txt')}\n  stats:  ${join(repo, 'stats.json')}\n`,
    );
    return exitCode;
  } finally {
    await server.close();
  }
}

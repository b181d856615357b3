/**
 * Crawlee's CheerioCrawler on the synthetic web, for a side-by-side figure (`run.ts --compare-crawlee
 * DIR`): the same seed, 16 requests in flight from the start (no autoscaling ramp), no retries, no
 * session pool, links followed within the seed's domain, every body saved to a file, the request
 * queue kept in memory (`CRAWLEE_PERSIST_STORAGE=false`: the fastest of Crawlee's settings we found;
 * its default on-disk queue took half as long again). Plain JavaScript, run by node without tsx, whose
 * source-map support would make the stack traces Crawlee's argument checks take much dearer.
 * Crawlee is not a dependency of tarantula: it is loaded from DIR, where
 * `npm install --prefix DIR crawlee@3.18.1` put it.
 *
 *   node bench/crawlee-crawl.mjs --crawlee DIR --seed URL --work WORKDIR [--threads 16]
 *
 * Every host name is sent to 127.0.0.1 (as the crawler's `--resolve`), through got's `dnsLookup`.
 * Prints `{"documents":N,"notFound":M,"failures":F}` once the queue is empty.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const argv = process.argv.slice(2);
const value = (name) => {
  const at = argv.indexOf(name);
  if (at < 0 || argv[at + 1] === undefined) throw new Error(`crawlee-crawl: ${name} is required`);
  return argv[at + 1];
};
const work = value('--work');
const threads = Number(argv.includes('--threads') ? value('--threads') : 16);
process.env.CRAWLEE_STORAGE_DIR = join(work, 'storage');
process.env.CRAWLEE_PERSIST_STORAGE = 'false';

const { CheerioCrawler, log } = createRequire(join(value('--crawlee'), 'package.json'))('crawlee');
log.setLevel(log.LEVELS.OFF);

/** Every name is 127.0.0.1, as `--resolve` tells the crawler. */
function loopback(_host, options, callback) {
  const done = typeof options === 'function' ? options : callback;
  if (typeof options === 'object' && options.all) done(null, [{ address: '127.0.0.1', family: 4 }]);
  else done(null, '127.0.0.1', 4);
}

let documents = 0;
let notFound = 0;
let failures = 0;
const crawler = new CheerioCrawler({
  minConcurrency: threads,
  maxConcurrency: threads,
  maxRequestRetries: 0,
  useSessionPool: false,
  ignoreHttpErrorStatusCodes: [404],
  preNavigationHooks: [(_ctx, gotOptions) => void (gotOptions.dnsLookup = loopback)],
  async requestHandler({ request, response, body, enqueueLinks }) {
    if (response.statusCode === 404) return void notFound++;
    documents++;
    const u = new URL(request.loadedUrl ?? request.url);
    const file = join(work, 'mirror', u.host.replace(':', '+'), u.pathname.endsWith('/') ? `${u.pathname}index.html` : u.pathname);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, body);
    await enqueueLinks({ strategy: 'same-domain' });
  },
  failedRequestHandler({ request }, error) {
    failures++;
    process.stderr.write(`crawlee-crawl: ${request.url}: ${error.message}\n`);
  },
});
await crawler.run([value('--seed')]);
process.stdout.write(JSON.stringify({ documents, notFound, failures }) + '\n');

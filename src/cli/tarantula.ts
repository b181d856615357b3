#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';

// bin/tarantula caps the main thread's young generation with --max-semi-space-size, which V8 reads
// once, when it makes the heap. Any flag away from its default also makes V8 refuse the code cache
// node carries for its own modules, so each one loaded after start (http, tls, worker_threads … 136
// in the demo) would be compiled from its source: 0.02 s of the demo's CPU, 0.006 s of --version's.
// Back at its default here, before the command's code loads them, the heap keeps the cap and node
// its cache. Worker threads, made after this, are bounded by their own resourceLimits.
setFlagsFromString('--max-semi-space-size=0');

// `tarantula --version` alone loads neither the command line's parser nor the configuration's keys.
const argv = process.argv.slice(2);
const { isVersionFlag, versionLine } = await import('../config/version.js');
if (argv.length === 1 && isVersionFlag(argv[0]!)) process.stdout.write(versionLine());
else await import('./main.js');

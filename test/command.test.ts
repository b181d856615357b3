import { execFile } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { VERSION } from '../src/config/version.js';
import { CLI, runCli } from './support/run-cli.js';
import { tempDir } from './support/temp-dir.js';

// bin/tarantula, the file npm links as `tarantula`: a shell script that sets glibc's malloc up and
// becomes node on dist/tarantula.mjs. Every other CLI test runs through it too; these check what it
// adds to node.

/** Node loads this before the CLI: it prints what the process was started with. */
const REPORT = '--import=data:text/javascript,process.stdout.write(JSON.stringify({pid:process.pid,malloc:process.env.MALLOC_MMAP_THRESHOLD_||null,semi:process.execArgv.filter(a=>a.startsWith("--max-semi"))})+"\\n")';

/** The young generation's cap that bin/tarantula gives node. */
const SEMI_FLAG = '--max-semi-space-size=8';

/** The environment of the tests without any malloc setting of the machine's own. */
function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, TARANTULA_NODE_FLAGS: REPORT, ...extra };
  for (const name of ['MALLOC_MMAP_THRESHOLD_', 'GLIBC_TUNABLES']) if (!(name in extra)) delete env[name];
  return env;
}

async function started(env: NodeJS.ProcessEnv): Promise<{ pid: number; childPid: number; malloc: string | null; semi: string[]; version: string }> {
  let childPid = 0;
  const { code, stdout, stderr } = await runCli(['--version'], { env, onSpawn: (child) => (childPid = child.pid!) });
  expect(code, stderr).toBe(0);
  const [report, version] = stdout.trim().split('\n');
  return { ...(JSON.parse(report!) as { pid: number; malloc: string | null; semi: string[] }), childPid, version: version! };
}

describe('the tarantula command (bin/tarantula)', () => {
  let tmp: Awaited<ReturnType<typeof tempDir>>;
  beforeEach(async () => (tmp = await tempDir()));
  afterEach(() => tmp.remove());

  it('runs through the link npm makes in node_modules/.bin', async () => {
    const bin = join(tmp.dir, 'node_modules', '.bin');
    await mkdir(bin, { recursive: true });
    await symlink(CLI, join(bin, 'tarantula'));
    const { stdout } = await promisify(execFile)('tarantula', ['--version'], { cwd: tmp.dir, env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } });
    expect(stdout).toBe(`tarantula ${VERSION}\n`);
  });

  it('becomes node itself (the pid that was started, so signals and exit codes are node\'s), with the node flags of TARANTULA_NODE_FLAGS and malloc\'s threshold fixed', async () => {
    const run = await started(cleanEnv());
    expect(run.pid).toBe(run.childPid);
    expect(run.malloc).toBe('131072');
    expect(run.semi).toEqual([SEMI_FLAG]);
    expect(run.version).toBe(`tarantula ${VERSION}`);
  });

  it('caps the young generation unless the user sets its size, in TARANTULA_NODE_FLAGS or NODE_OPTIONS', async () => {
    expect((await started(cleanEnv({ TARANTULA_NODE_FLAGS: `--max-semi-space-size=2 ${REPORT}` }))).semi).toEqual(['--max-semi-space-size=2']);
    // NODE_OPTIONS are not in execArgv: the launcher's own flag is what would show.
    expect((await started(cleanEnv({ NODE_OPTIONS: '--max-semi-space-size=2' }))).semi).toEqual([]);
  });

  it('keeps the young generation capped after it sets the flag back to its default (for node\'s code cache)', async () => {
    // At exit, after the command ran: short-lived garbage enough to grow the young generation to its
    // bound. No spaces: the launcher splits TARANTULA_NODE_FLAGS on them.
    const churn = '--import=data:text/javascript,import{getHeapSpaceStatistics}from"node:v8";process.on("exit",()=>{((k,i)=>{for(i=0;i<3e6;i++){k.push({a:i,b:"x"+i});if(k.length>2e4)k=[]}})([],0);' +
      'process.stderr.write("newspace="+getHeapSpaceStatistics().find((s)=>s.space_name==="new_space").space_size/1048576+"\\n")})';
    const newSpace = async (flags: string): Promise<number> => {
      const { code, stderr } = await runCli(['--version'], { env: cleanEnv({ TARANTULA_NODE_FLAGS: flags }) });
      expect(code, stderr).toBe(0);
      return Number(/newspace=(\d+)/.exec(stderr)?.[1]);
    };
    expect(await newSpace(churn)).toBe(16);
    // The same garbage with semi-spaces of 16 MiB (node's bound) grows it to twice that.
    expect(await newSpace(`--max-semi-space-size=16 ${churn}`)).toBe(32);
  });

  it('leaves a malloc setting of the user\'s own as it is', async () => {
    expect((await started(cleanEnv({ MALLOC_MMAP_THRESHOLD_: '262144' }))).malloc).toBe('262144');
    expect((await started(cleanEnv({ GLIBC_TUNABLES: 'glibc.malloc.trim_threshold=1048576' }))).malloc).toBeNull();
  });
});

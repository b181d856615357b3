import { describe, expect, it } from 'vitest';
import type { CrawlerConfig } from '../src/model/config.js';
import { KEYS } from '../src/config/keys.js';
import { SECTIONS } from '../src/config/sections.js';
import { runCli } from './support/run-cli.js';

describe('tarantula help COMMAND', () => {
  it('lists the crawl\'s flags by Crawler.conf section, each with its unit, default and meaning', async () => {
    const { code, stdout, stderr } = await runCli(['help', 'crawl']);
    expect(code, stderr).toBe(0);
    expect(stdout.startsWith('Usage: tarantula crawl [CONF] [--watch] [--report] [FLAGS]\n')).toBe(true);
    expect(stdout).toMatch(/^ {2}--watch +then recrawl every `period` hours/m);
    const headers = SECTIONS.map((s) => stdout.indexOf(`\n[${s}]\n`));
    expect(headers.every((at) => at > 0)).toBe(true);
    expect(headers).toEqual([...headers].sort((a, b) => a - b));
    for (const field of Object.keys(KEYS) as (keyof CrawlerConfig)[]) {
      const spec = KEYS[field];
      const at = stdout.search(new RegExp(`^ {2}.*--${spec.name} .*default \\S+\\n`, 'm'));
      expect(at, spec.name).toBeGreaterThan(0);
      // Under its own section: the last header before the line is the key's.
      const before = SECTIONS.filter((_, i) => headers[i]! < at);
      expect(before.at(-1), spec.name).toBe(spec.section);
      // Then its meaning, wrapped and indented.
      expect(stdout.slice(at).split('\n')[1], spec.name).toMatch(new RegExp(`^ {6}${spec.doc.split(' ')[0]!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `));
    }
    expect(stdout).toMatch(/--max-crawl-delay N +seconds; default 60\n {6}A host whose robots\.txt asks for a longer Crawl-delay is skipped\.\n/);
  });

  it.each([
    ['run', 'Usage: tarantula run PIPELINE [CONF] [FLAGS]', '[fetch-options]'],
    ['pagerank', 'Usage: tarantula pagerank INDEX', '--damping D'],
    ['report', 'Usage: tarantula report REPOSITORY', 'report.html'],
    ['merge', 'Usage: tarantula merge INTO REPOSITORY…', 'INTO/index.cdxj'],
    ['demo', 'Usage: tarantula demo [--report] [FLAGS]', '[crawler-options]'],
  ])('describes %s', async (command, synopsis, detail) => {
    const { code, stdout } = await runCli(['help', command]);
    expect(code).toBe(0);
    expect(stdout.startsWith(synopsis)).toBe(true);
    expect(stdout).toContain(detail);
  });

  it('gives pagerank\'s own flags with their defaults, and no Crawler.conf keys', async () => {
    const { stdout } = await runCli(['help', 'pagerank']);
    expect(stdout).toMatch(/--top N +rows printed, best first; 0 = all; default 10\n/);
    expect(stdout).toMatch(/--damping D +.*default 0\.85\n/);
    expect(stdout).not.toContain('--max-depth');
  });

  it('says the same for COMMAND --help; help alone is --help', async () => {
    expect((await runCli(['crawl', '--help'])).stdout).toBe((await runCli(['help', 'crawl'])).stdout);
    const plain = await runCli(['help']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe((await runCli(['--help'])).stdout);
    expect(plain.stdout).toContain('tarantula help [COMMAND]');
  });

  it('refuses an unknown command with one line naming it, exit 2', async () => {
    const { code, stdout, stderr } = await runCli(['help', 'fetch']);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toBe('tarantula: unknown command "fetch" (expected crawl, run, pagerank, report, merge or demo; see --help)\n');
  });
});

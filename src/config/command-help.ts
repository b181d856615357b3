import type { CrawlerConfig } from '../model/config.js';
import { KEYS } from './keys.js';
import { DEFAULT_PAGERANK, type RunCommand } from './parse-args.js';
import { SECTIONS } from './sections.js';
import { keyFlagLine } from './usage.js';

/** What `tarantula help COMMAND` says of one command. */
interface CommandHelp {
  readonly synopsis: string;
  /** What the command does, a paragraph. */
  readonly about: string;
  /** The command's own flags: [flag and value, meaning]. */
  readonly flags: readonly (readonly [string, string])[];
  /** Whether every Crawler.conf key is also a flag of the command. */
  readonly keyFlags: boolean;
}

const STATUS = `Exit status: 0 done (also when a limit or a closed stdout ended it); 2 bad configuration or
arguments (nothing is fetched); 1 the crawl could not run; 130 / 143 after SIGINT / SIGTERM,
once the state is saved: the same command resumes.`;

/** One entry per command: a command without one does not compile. */
const HELP: { readonly [C in RunCommand]: CommandHelp } = {
  crawl: {
    synopsis: 'tarantula crawl [CONF] [--watch] [--report] [FLAGS]',
    about: `Crawls as CONF says (default ./Crawler.conf) and writes the mirror, REPOSITORY/index.txt and
REPOSITORY/stats.json. The same command resumes a stopped crawl, and recrawls a finished one with
conditional requests. With a Redis frontier, starts \`workers\` processes that share the crawl.`,
    flags: [
      ['--watch', 'then recrawl every `period` hours, until stopped'],
      ['--report', 'then write REPOSITORY/report.html'],
    ],
    keyFlags: true,
  },
  run: {
    synopsis: 'tarantula run PIPELINE [CONF] [FLAGS]',
    about: `Runs a pipeline file (pipelines/NAME.ts by name, or a .ts/.js file by path) with the crawl's
configuration, flags, state and signals: a crawl of your own, built from the library's stages.
With a Redis frontier, runs the pipeline in each of \`workers\` processes that share the crawl.`,
    flags: [],
    keyFlags: true,
  },
  pagerank: {
    synopsis: 'tarantula pagerank INDEX [--top N] [--format table|tsv|jsonl] [--damping D]',
    about: `Reads an index file of any format, builds the link graph and prints PageRank:
rank, URL, out-degree, in-degree and score, best first.`,
    flags: [
      ['--top N', `rows printed, best first; 0 = all; default ${DEFAULT_PAGERANK.top}`],
      ['--format table|tsv|jsonl', `default ${DEFAULT_PAGERANK.format}`],
      ['--damping D', `the probability of following a link, 0 ≤ D < 1; default ${DEFAULT_PAGERANK.damping}`],
    ],
    keyFlags: false,
  },
  report: {
    synopsis: 'tarantula report REPOSITORY',
    about: `Writes REPOSITORY/report.html: the charts of a crawl (pages over time, statuses, types, hosts,
depth, durations, drops, failures, PageRank), one file that loads nothing from the network.`,
    flags: [],
    keyFlags: false,
  },
  merge: {
    synopsis: 'tarantula merge INTO REPOSITORY…',
    about: `Makes one repository INTO of the repositories that the machines of a crawl shared through Redis
wrote: INTO/index.txt with every URL once (the record fetched last), the mirror files hard-linked
(copied across file systems), stats.json summed, the WARC files under INTO/archive/ with one sorted
INTO/index.cdxj. INTO must be new or empty; a part being crawled is refused.`,
    flags: [],
    keyFlags: false,
  },
  demo: {
    synopsis: 'tarantula demo [--report] [FLAGS]',
    about: `Serves the bundled fixture web (fixtures/demo/) on 127.0.0.1, points its host names at it as
--resolve would, crawls it with fixtures/demo/Crawler.conf into ./demo-output, and says where the
mirror, the index and the stats are. Run it twice: the second run is a recrawl.`,
    flags: [['--report', 'then write demo-output/report.html']],
    keyFlags: true,
  },
};

/**
 * The text of `tarantula help COMMAND`: what the command does, its own flags, and, for the commands
 * that read Crawler.conf, every key's flag with its unit, default and meaning, by section.
 *
 * @example
 * commandHelp('crawl').includes('[politeness-options]') //=> true
 */
export function commandHelp(command: RunCommand): string {
  const help = HELP[command];
  const own = help.flags.map(([flag, meaning]) => `  ${flag.padEnd(44)} ${meaning}`);
  const parts = [`Usage: ${help.synopsis}`, help.about, ...(own.length > 0 ? [own.join('\n')] : [])];
  if (help.keyFlags) {
    parts.push(`FLAGS override Crawler.conf, key by key: --KEY VALUE or --KEY=VALUE; a list flag may be
repeated, each use adding one item (--resolve and --header add to the file's list, the others
replace it); a true|false flag alone means true. For every limit, 0 means no limit.`);
    for (const section of SECTIONS) {
      const fields = (Object.keys(KEYS) as (keyof CrawlerConfig)[]).filter((f) => KEYS[f].section === section);
      parts.push([`[${section}]`, ...fields.map((f) => `${keyFlagLine(f)}\n${wrap(KEYS[f].doc, '      ')}`)].join('\n'));
    }
  }
  if (command === 'crawl' || command === 'run' || command === 'demo') parts.push(STATUS);
  return `${parts.join('\n\n')}\n`;
}

/** TEXT in lines of at most 100 columns, each starting with INDENT. */
function wrap(text: string, indent: string): string {
  const lines: string[] = [];
  let line = indent;
  for (const word of text.split(' ')) {
    if (line.length > indent.length && line.length + 1 + word.length > 100) {
      lines.push(line);
      line = indent;
    }
    line += line.length > indent.length ? ` ${word}` : word;
  }
  return [...lines, line].join('\n');
}

// The supervisor's environment variables for its workers, apart from the supervisor itself: every
// `tarantula` command reads the first at start, and loads the distributed crawl only when it runs one.

/** The environment variable that makes a `tarantula crawl` process worker SLOT of its supervisor. */
export const WORKER_SLOT_ENV = 'TARANTULA_WORKER_SLOT';
/**
 * The environment variable that hands a worker its command line (JSON), passwords and all: the
 * command line itself, which `ps` shows to every user of the machine, has them as `***`. A process's
 * environment is readable by its own user only (/proc/PID/environ), who can read Crawler.conf too.
 */
export const WORKER_ARGV_ENV = 'TARANTULA_WORKER_ARGV';

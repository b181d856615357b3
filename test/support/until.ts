import { setTimeout as sleep } from 'node:timers/promises';

/** Polls `check` every 10 ms until it holds; throws after `timeoutMs`. */
export async function until(check: () => boolean, timeoutMs = 20_000): Promise<void> {
  for (const end = Date.now() + timeoutMs; !check(); await sleep(10)) {
    if (Date.now() > end) throw new Error('timed out waiting');
  }
}

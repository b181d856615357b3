/**
 * Mercator's front-queue selector over one host's priority levels: a smooth weighted round robin
 * (nginx's upstream selector) over the levels that hold requests, level i (0-based) weighing 2^i.
 * `counts[i]` is the requests level i holds, `credit[i]` its running credit; both hosts' shapes
 * ({@link FrontQueues}' queue a level, {@link SmallQueue}'s one arena) keep them so, and take in
 * the same order.
 */

/** The level the next take uses: the highest credit after this round's weights are added; ties go to the higher level. -1 when all are empty. */
export function selectLevel(counts: readonly number[], credit: readonly number[]): number {
  let best = -1;
  let bestCredit = -Infinity;
  for (let i = counts.length - 1; i >= 0; i--) {
    if (counts[i] === 0) continue;
    const c = credit[i]! + 2 ** i;
    if (c > bestCredit) {
      best = i;
      bestCredit = c;
    }
  }
  return best;
}

/** Settles the round for a take from level `pick` ({@link selectLevel}'s answer) and counts it out. */
export function takeFrom(counts: number[], credit: number[], pick: number): void {
  let total = 0;
  for (let i = 0; i < counts.length; i++) {
    if (counts[i] === 0) continue;
    credit[i]! += 2 ** i;
    total += 2 ** i;
  }
  credit[pick]! -= total;
  // An emptied level leaves the round: its credit would otherwise stay owed to it or by it.
  if (--counts[pick]! === 0) credit[pick] = 0;
}

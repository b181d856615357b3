/** A sample line of the text format: name, labels (inside the braces), value. */
const SAMPLE = /^([A-Za-z_:][A-Za-z0-9_:]*)(?:\{(.*)\})?[ \t]+(\S+)$/;
/** Families summed into the crawl's totals: the crawl's own figures, not each process's (memory, CPU, event loop) nor its state. */
const summed = (family: string): boolean => family.startsWith('tarantula_') && family !== 'tarantula_crawl_state';

interface Family {
  readonly head: string[];
  readonly samples: string[];
  /** The totals, by sample name and labels. */
  readonly totals: Map<string, number>;
}

const number = (n: number): string => (Number.isFinite(n) ? String(n) : n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN');

/**
 * The metrics of a shared crawl's command: every sample of each worker's /metrics with a `worker`
 * label (its slot), and for the crawl's own counters and gauges (`tarantula_*`, but its state) the
 * crawl's totals, the same series without the label. Families keep their first worker's HELP and TYPE.
 *
 * @example
 * relayWorkerMetrics(new Map([[0, '# TYPE t_total counter\nt_total 2\n'], [1, '…t_total 3\n']]))
 * //=> '# TYPE t_total counter\nt_total{worker="0"} 2\nt_total{worker="1"} 3\n' (with a total of 5 for a tarantula_ family)
 */
export function relayWorkerMetrics(texts: ReadonlyMap<number, string>): string {
  const families = new Map<string, Family>();
  const familyOf = (name: string): Family => {
    let f = families.get(name);
    if (f === undefined) families.set(name, (f = { head: [], samples: [], totals: new Map() }));
    return f;
  };
  for (const [slot, text] of [...texts].sort((a, b) => a[0] - b[0])) {
    let current: Family | undefined;
    let currentName = '';
    for (const line of text.split('\n')) {
      const comment = /^# (HELP|TYPE) (\S+)/.exec(line);
      if (comment) {
        currentName = comment[2]!;
        current = familyOf(currentName);
        if (current.head.length < 2 && !current.head.some((h) => h.startsWith(`# ${comment[1]} `))) current.head.push(line);
        continue;
      }
      const sample = SAMPLE.exec(line);
      if (sample === null || current === undefined) continue;
      const [, name, labels, value] = sample;
      current.samples.push(`${name}{worker="${slot}"${labels ? `,${labels}` : ''}} ${value}`);
      if (summed(currentName)) {
        const key = `${name}${labels ? `{${labels}}` : ''}`;
        current.totals.set(key, (current.totals.get(key) ?? 0) + Number(value === '+Inf' ? Infinity : value === '-Inf' ? -Infinity : value));
      }
    }
  }
  let out = '';
  for (const f of families.values()) {
    out += f.head.join('\n') + '\n';
    for (const line of f.samples) out += `${line}\n`;
    for (const [key, total] of f.totals) out += `${key} ${number(total)}\n`;
  }
  return out;
}

/** A labelled count: one bar. */
export type Row = readonly [label: string, value: number];
/** A rate over a span of time: [from, to] in seconds, and the rate. */
export type Interval = readonly [from: number, to: number, rate: number];

const WIDTH = 480;

export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const number = (n: number): string => (Number.isInteger(n) ? n.toLocaleString('en') : n.toLocaleString('en', { maximumFractionDigits: 1 }));
const cut = (text: string, max: number): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** Room left of a plot for its y-axis label (about 7 units per character of the 12 px text). */
const axisRoom = (top: number): number => 14 + 7 * number(top).length;

/** The smallest 1, 2 or 5 × 10^k at or above `n`: the top of an axis. */
export function niceCeil(n: number): number {
  if (n <= 0) return 1;
  const step = 10 ** Math.floor(Math.log10(n));
  for (const m of [1, 2, 5, 10]) if (m * step >= n) return m * step;
  return 10 * step;
}

/** The rate chart spans the page: drawn twice as wide, so that its text keeps the size of the others'. */
const WIDE = 2 * WIDTH;

const svg = (name: string, height: number, body: string, title: string, width = WIDTH): string =>
  `<svg class="chart" data-chart="${name}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${escapeHtml(title)}">${body}</svg>`;

/**
 * Horizontal bars, one per row, largest first as given, with the label on the left and the count at
 * the bar's end: for categories with long names (hosts, reasons, codes). Each bar is a
 * `rect.bar[data-value]` with the exact figure in its tooltip.
 *
 * @example
 * barChart('status', 'Status codes', [['200', 43], ['404', 1]])
 * //=> '<svg class="chart" data-chart="status" …><rect class="bar" data-value="43" …'
 */
export function barChart(name: string, title: string, rows: readonly Row[]): string {
  const rowHeight = 22;
  const labelWidth = 190;
  const room = WIDTH - labelWidth - 70;
  const max = Math.max(1, ...rows.map((r) => r[1]));
  const body = rows
    .map(([label, value], i) => {
      const y = i * rowHeight;
      const w = Math.max(1, (value / max) * room);
      const tip = `<title>${escapeHtml(`${label}: ${number(value)}`)}</title>`;
      return (
        `<text class="label" x="${labelWidth - 8}" y="${y + 15}" text-anchor="end">${escapeHtml(cut(label, 30))}${tip}</text>` +
        `<rect class="bar" data-value="${value}" x="${labelWidth}" y="${y + 3}" width="${w.toFixed(1)}" height="${rowHeight - 6}" rx="2">${tip}</rect>` +
        `<text class="value" x="${(labelWidth + w + 6).toFixed(1)}" y="${y + 15}">${number(value)}</text>`
      );
    })
    .join('');
  return svg(name, Math.max(rowHeight, rows.length * rowHeight), body, title);
}

/**
 * Vertical columns over an ordered axis (depth, duration ranges), with a labelled y-axis top.
 *
 * @example
 * columnChart('depth', 'Pages by depth', [['0', 2], ['1', 30], ['2', 11]])
 */
export function columnChart(name: string, title: string, rows: readonly Row[]): string {
  const height = 200;
  const bottom = 28;
  const plot = height - bottom - 8;
  const top = niceCeil(Math.max(0, ...rows.map((r) => r[1])));
  const left = axisRoom(top);
  const slot = (WIDTH - left) / Math.max(1, rows.length);
  const axis =
    `<line class="axis" x1="${left}" y1="${8 + plot}" x2="${WIDTH}" y2="${8 + plot}"/>` +
    `<line class="grid" x1="${left}" y1="8" x2="${WIDTH}" y2="8"/>` +
    `<text class="tick" x="${left - 6}" y="12" text-anchor="end">${number(top)}</text>` +
    `<text class="tick" x="${left - 6}" y="${8 + plot}" text-anchor="end">0</text>`;
  const body = rows
    .map(([label, value], i) => {
      const h = (value / top) * plot;
      // Few columns stay column-shaped instead of filling the width.
      const width = Math.min(slot * 0.7, 64);
      const x = left + (i + 0.5) * slot - width / 2;
      const tip = `<title>${escapeHtml(`${label}: ${number(value)}`)}</title>`;
      return (
        `<rect class="bar" data-value="${value}" x="${x.toFixed(1)}" y="${(8 + plot - h).toFixed(1)}" width="${width.toFixed(1)}" height="${Math.max(value > 0 ? 1 : 0, h).toFixed(1)}" rx="2">${tip}</rect>` +
        `<text class="tick" x="${(left + (i + 0.5) * slot).toFixed(1)}" y="${height - 10}" text-anchor="middle">${escapeHtml(cut(label, 10))}</text>`
      );
    })
    .join('');
  return svg(name, height, axis + body, title);
}

/**
 * A rate over time, as steps: each interval drawn level at its rate, the area below filled, the
 * x-axis in seconds. The line carries how many intervals it draws (`data-points`).
 *
 * @example
 * rateChart('rate', 'Pages per second', [[0, 1, 10], [1, 2, 14]], 2)
 */
export function rateChart(name: string, title: string, intervals: readonly Interval[], spanSeconds: number): string {
  const height = 200;
  const bottom = 28;
  const plot = height - bottom - 8;
  const top = niceCeil(Math.max(0, ...intervals.map((p) => p[2])));
  const left = axisRoom(top);
  const span = spanSeconds > 0 ? spanSeconds : 1;
  const x = (s: number): string => (left + (s / span) * (WIDE - left - 8)).toFixed(1);
  const y = (r: number): string => (8 + plot - (r / top) * plot).toFixed(1);
  const line = intervals.map(([from, to, r], i) => `${i === 0 ? 'M' : 'L'}${x(from)},${y(r)}L${x(to)},${y(r)}`).join('');
  const area = intervals.length > 0 ? `${line}L${x(intervals[intervals.length - 1]![1])},${y(0)}L${x(intervals[0]![0])},${y(0)}Z` : '';
  const seconds = (s: number): string => `${number(Math.round(s * 10) / 10)} s`;
  const body =
    `<line class="axis" x1="${left}" y1="${8 + plot}" x2="${WIDE}" y2="${8 + plot}"/>` +
    `<line class="grid" x1="${left}" y1="8" x2="${WIDE}" y2="8"/>` +
    `<text class="tick" x="${left - 6}" y="12" text-anchor="end">${number(top)}</text>` +
    `<text class="tick" x="${left - 6}" y="${8 + plot}" text-anchor="end">0</text>` +
    `<text class="tick" x="${left}" y="${height - 10}">0 s</text>` +
    `<text class="tick" x="${WIDE - 8}" y="${height - 10}" text-anchor="end">${seconds(span)}</text>` +
    `<path class="area" d="${area}"/>` +
    `<path class="series" data-points="${intervals.length}" d="${line}"/>`;
  return svg(name, height, body, title, WIDE);
}

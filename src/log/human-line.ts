import { styleText } from 'node:util';
import { replaceControls } from './control-characters.js';

/** Colours a piece of text, or leaves it as it is when the terminal has none. */
export type Paint = (style: Parameters<typeof styleText>[0], text: string) => string;

export const noPaint: Paint = (_style, text) => text;
// Whether to colour is the terminal's decision (Terminal asks stderr); styleText would ask stdout.
export const ansiPaint: Paint = (style, text) => styleText(style, text, { validateStream: false });

/** The `page` level of createLogger: a line per fetched document. */
const PAGE = 25;
const LEVELS: Record<number, readonly [string, Parameters<typeof styleText>[0]]> = {
  10: ['TRACE', 'gray'],
  20: ['DEBUG', 'gray'],
  30: ['INFO', 'cyan'],
  40: ['WARN', 'yellow'],
  50: ['ERROR', 'red'],
  60: ['FATAL', 'red'],
};

// A URL or a message may carry what a hostile server sent: no control character reaches the
// terminal, nor a bidirectional override that would make a line read as something else.
const clean = (value: unknown): string => replaceControls(String(value));

const statusStyle = (status: number): Parameters<typeof styleText>[0] =>
  status < 300 ? 'green' : status < 400 ? 'cyan' : status < 500 ? 'yellow' : 'red';

/**
 * One pino record as a person reads it at a terminal: local time, then for a page line the status,
 * URL and milliseconds (as wget prints them), for other lines the level and message; then the few
 * fields that matter (status, URL, ms, reason or code, the folder written, the error's message). Everything else stays
 * in the JSON log (`--log-file`).
 *
 * @example
 * humanLine({ level: 25, time: '2026-12-01T09:15:02.000Z', url: 'http://a.test/', status: 200, ms: 12, msg: 'fetched' }, noPaint)
 * //=> '10:15:02 200 http://a.test/ 12 ms'   (in UTC+1)
 */
export function humanLine(log: Record<string, unknown>, paint: Paint): string {
  const at = new Date(typeof log.time === 'string' || typeof log.time === 'number' ? log.time : Date.now());
  const parts = [paint('dim', at.toTimeString().slice(0, 8))];
  const level = typeof log.level === 'number' ? log.level : 30;
  const status = typeof log.status === 'number' ? log.status : undefined;
  const msg = typeof log.msg === 'string' ? clean(log.msg) : '';
  if (level === PAGE) {
    if (status !== undefined) parts.push(paint(statusStyle(status), String(status)));
    else if (log.code !== undefined) parts.push(paint('yellow', clean(log.code)));
    if (log.url !== undefined) parts.push(clean(log.url));
    if (msg !== 'fetched') parts.push(paint(status === undefined || status >= 400 ? 'yellow' : 'reset', msg));
  } else {
    const [label, style] = LEVELS[level] ?? ['LOG', 'reset'];
    parts.push(paint(style, label), level >= 40 ? paint(style, msg) : msg);
    if (status !== undefined) parts.push(paint(statusStyle(status), String(status)));
    if (log.url !== undefined) parts.push(clean(log.url));
    if (log.location !== undefined) parts.push(`→ ${clean(log.location)}`);
    for (const path of [log.repository, log.report]) if (typeof path === 'string') parts.push(clean(path));
    const why = log.reason ?? log.code;
    if (why !== undefined) parts.push(paint('dim', `(${clean(why)})`));
  }
  if (typeof log.ms === 'number') parts.push(paint('dim', `${Math.round(log.ms)} ms`));
  const err = log.err as { message?: unknown } | undefined;
  if (err?.message !== undefined) parts.push(paint('red', clean(err.message)));
  return parts.join(' ');
}

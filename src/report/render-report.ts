import { withoutPassword } from '../config/without-password.js';
import { formatBytes } from './format-bytes.js';
import type { ReportData } from './report-data.js';
import { barChart, columnChart, escapeHtml, rateChart, type Row } from './svg-charts.js';

const rows = (counts: Readonly<Record<string, number>> | undefined): Row[] => Object.entries(counts ?? {});

/** The report's styles, which the live dashboard of `--serve` shares. */
export const REPORT_STYLE = `
:root{color-scheme:light dark;--fg:#1d232a;--muted:#5b6570;--bg:#fbfbfa;--card:#fff;--line:#d9dde1;--bar:#2f7d6d;--area:#2f7d6d33}
@media (prefers-color-scheme:dark){:root{--fg:#e6e8ea;--muted:#9aa4ae;--bg:#14171a;--card:#1c2024;--line:#343a40;--bar:#5cc2a8;--area:#5cc2a833}}
*{box-sizing:border-box}body{margin:0;font:15px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--fg);background:var(--bg)}
header,main{max-width:1100px;margin:0 auto;padding:16px 24px}h1{font-size:22px;margin:8px 0 2px}header p{margin:0;color:var(--muted)}
dl.figures{display:flex;flex-wrap:wrap;gap:10px 28px;margin:16px 0 0}dl.figures div{min-width:90px}dt{color:var(--muted);font-size:13px}dd{margin:0;font-size:22px;font-weight:600}
main{display:grid;grid-template-columns:repeat(auto-fill,minmax(460px,1fr));gap:18px}
figure{margin:0;background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px 14px}figure.wide{grid-column:1/-1}
figcaption{font-weight:600;margin-bottom:8px}figcaption small{font-weight:400;color:var(--muted)}
svg.chart{width:100%;height:auto;display:block;font-size:12px}svg .bar{fill:var(--bar)}svg .area{fill:var(--area)}svg .series{fill:none;stroke:var(--bar);stroke-width:2}
svg text{fill:var(--fg)}svg .tick,svg .value{fill:var(--muted)}svg .axis{stroke:var(--muted)}svg .grid{stroke:var(--line);stroke-dasharray:3 3}
p.none{color:var(--muted);margin:4px 0}table{border-collapse:collapse;width:100%;font-size:13px}th,td{padding:3px 6px;text-align:left;border-bottom:1px solid var(--line)}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}td.url{word-break:break-all}td .meter{display:inline-block;height:8px;background:var(--bar);border-radius:2px;vertical-align:middle}`;

/** One chart in its figure, or a line saying there is nothing to draw (a crawl without failures). */
function figure(name: string, title: string, note: string, chart: string | undefined, wide = false): string {
  const body = chart ?? `<p class="none" data-chart="${name}" data-empty="true">none</p>`;
  return `<figure class="${wide ? 'wide' : ''}" id="${name}"><figcaption>${escapeHtml(title)} <small>${escapeHtml(note)}</small></figcaption>${body}</figure>`;
}

const bars = (name: string, title: string, data: readonly Row[]): string | undefined => (data.length > 0 ? barChart(name, title, data) : undefined);

function pagerankTable(data: ReportData): string | undefined {
  if (data.pagerank.length === 0) return undefined;
  const best = data.pagerank[0]!.score;
  const body = data.pagerank
    .map(
      (p) =>
        `<tr class="ranked"><td class="n">${p.rank}</td><td class="url">${escapeHtml(withoutPassword(p.url))}</td><td class="n">${p.inDegree}</td><td class="n">${p.outDegree}</td>` +
        `<td class="n">${p.score.toFixed(5)} <span class="meter" style="width:${Math.max(1, (p.score / best) * 60).toFixed(0)}px"></span></td></tr>`,
    )
    .join('');
  return `<table data-chart="pagerank"><thead><tr><th class="n">#</th><th>URL</th><th class="n">in</th><th class="n">out</th><th class="n">PageRank</th></tr></thead><tbody>${body}</tbody></table>`;
}

/** The headline figures of a crawl's counters, as `<dl class="figures">`. */
export function headlineFigures(s: Partial<ReportData['summary']>): string {
  const figures: [string, string][] = [
    ['pages', (s.documents ?? 0).toLocaleString('en')],
    ['indexed', (s.indexed ?? 0).toLocaleString('en')],
    ['failures', (s.failures ?? 0).toLocaleString('en')],
    ['redirects', (s.redirects ?? 0).toLocaleString('en')],
    ['bytes', formatBytes(s.bytes ?? 0)],
    ['time', `${s.seconds ?? 0} s`],
    ['pages/s', String(s.pagesPerSecond ?? 0)],
  ];
  return `<dl class="figures">${figures.map(([k, v]) => `<div><dt>${k}</dt><dd>${escapeHtml(v)}</dd></div>`).join('')}</dl>`;
}

/**
 * The report's charts, each in its figure, by name (`rate`, `status`, `types`, `hosts`, `depth`,
 * `durations`, `dropped`, `failures`, `recrawl`, `pagerank`); `rateSource` says where the pages over time come from.
 */
export function reportFigures(data: ReportData, rateSource = 'from the journal'): Map<string, string> {
  const s = data.summary;
  return new Map([
    ['rate', figure('rate', 'Pages over time', `pages per second, ${rateSource}`, data.rate.length > 0 ? rateChart('rate', 'Pages per second', data.rate, data.spanSeconds) : undefined, true)],
    ['status', figure('status', 'Status codes', 'responses, redirects and failures included', bars('status', 'Status codes', rows(s.byStatus)))],
    ['types', figure('types', 'Types', 'documents by type', bars('types', 'Types', rows(s.byType)))],
    ['hosts', figure('hosts', 'Top hosts', 'documents, the 10 busiest hosts', bars('hosts', 'Top hosts', rows(s.topHosts)))],
    ['depth', figure('depth', 'Depth', 'documents by links from a seed', data.depth.length > 0 ? columnChart('depth', 'Depth', data.depth) : undefined)],
    ['durations', figure('durations', 'Fetch durations', 'documents by time to fetch', data.durations.some((r) => r[1] > 0) ? columnChart('durations', 'Fetch durations', data.durations) : undefined)],
    ['dropped', figure('dropped', 'Drop reasons', 'URLs not fetched, by reason', bars('dropped', 'Drop reasons', rows(s.droppedByReason)))],
    ['failures', figure('failures', 'Failures', 'requests that failed, by code', bars('failures', 'Failures', rows(s.failuresByCode)))],
    ...(s.recrawl === undefined ? [] : [['recrawl', figure('recrawl', 'Recrawl', 'pages against the last crawl', bars('recrawl', 'Recrawl', rows(s.recrawl)))] as const]),
    ['pagerank', figure('pagerank', 'PageRank top 20', 'over the link graph of index.txt', pagerankTable(data), true)],
  ]);
}

/**
 * The crawl report: one self-contained HTML page (styles inlined, no script, no external resource)
 * with the headline figures and a chart per question a person asks of a crawl, hand-drawn as SVG.
 *
 * @example
 * await writeFile('demo-output/report.html', renderReport(await readReportData('demo-output')));
 */
export function renderReport(data: ReportData, generatedAt = new Date()): string {
  const s = data.summary;
  const state = s.completed === false ? `interrupted, ${s.pending ?? 0} URLs pending` : 'completed';
  const charts = [...reportFigures(data).values()];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>tarantula report: ${escapeHtml(data.repository)}</title><style>${REPORT_STYLE}</style></head>
<body><header><h1>Crawl report: ${escapeHtml(data.repository)}</h1>
<p>${escapeHtml(state)}; written ${escapeHtml(generatedAt.toISOString())} by tarantula report</p>
${headlineFigures(s)}</header>
<main>${charts.join('\n')}</main></body></html>
`;
}

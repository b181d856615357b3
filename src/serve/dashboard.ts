import type { LiveCrawl } from '../app/live-crawl.js';
import { durationRows } from '../report/report-data.js';
import { headlineFigures, REPORT_STYLE, reportFigures } from '../report/render-report.js';
import { escapeHtml } from '../report/svg-charts.js';
import type { crawlSampler } from './crawl-sampler.js';

/** The report's figures that a running crawl has: depth and PageRank need the finished index. */
const LIVE_FIGURES = ['rate', 'status', 'types', 'hosts', 'durations', 'dropped', 'failures'];

/** Seconds between two refreshes of the dashboard. */
const REFRESH_MS = 2000;

/** The dashboard's own styles, after the report's: a state line, and one column on a phone. */
export const DASHBOARD_CSS = `${REPORT_STYLE}
#state{font-weight:600}#state[data-state=paused]{color:#b7791f}#state[data-state=stopping]{color:#c53030}
@media (max-width:560px){header,main{padding:10px 12px}main{grid-template-columns:1fr}dd{font-size:18px}}
`;

/**
 * The dashboard's script, served from the page's own origin (the Content-Security-Policy allows no
 * other, and no inline script): every 2 s it reads /status for the state line and /panels for the
 * figures and charts, drawn on the server by the report's own chart code.
 */
export const DASHBOARD_JS = `const state = document.getElementById('state');
const panels = document.getElementById('panels');
const count = (n) => n.toLocaleString('en');
async function refresh() {
  try {
    const [status, html] = await Promise.all([
      fetch('/status', { cache: 'no-store' }).then((r) => r.json()),
      fetch('/panels', { cache: 'no-store' }).then((r) => r.text()),
    ]);
    state.dataset.state = status.state;
    state.textContent = status.state + ': ' + count(status.documents) + ' pages, ' + count(status.pending) + ' pending, ' +
      count(status.inFlight) + ' in flight, ' + status.pagesPerSecond + ' pages/s';
    panels.innerHTML = html;
  } catch {
    state.dataset.state = 'stopping';
    state.textContent = 'the crawl has ended, or its server cannot be reached';
    return;
  }
  setTimeout(refresh, ${REFRESH_MS});
}
refresh();
`;

type Sampler = ReturnType<typeof crawlSampler>;

/** The figures and charts of the crawl so far: the report's, for what a running crawl has counted. */
export function livePanels(live: LiveCrawl, sampler: Sampler): string {
  const summary = live.ctx.stats.summary();
  const figures = reportFigures({
    repository: live.ctx.config.repository,
    summary: { ...summary, pagesPerSecond: sampler.last.pagesPerSecond },
    ...sampler.intervals(),
    depth: [],
    durations: durationRows(live.ctx.stats.durations().counts),
    pagerank: [],
  }, 'sampled every second');
  const charts = LIVE_FIGURES.flatMap((name) => figures.get(name) ?? []).join('\n');
  return `<header>${headlineFigures({ ...summary, pagesPerSecond: sampler.last.pagesPerSecond })}</header><main>${charts}</main>`;
}

/**
 * The dashboard page: the report's layout, refreshed by {@link DASHBOARD_JS}; no inline script or
 * style, nothing from another origin.
 */
export function dashboardPage(live: LiveCrawl, sampler: Sampler): string {
  const repository = escapeHtml(live.ctx.config.repository);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>tarantula: ${repository}</title><link rel="icon" href="/favicon.svg"><link rel="stylesheet" href="/dashboard.css">
<script type="module" src="/dashboard.js"></script></head>
<body><header><h1>Crawl: ${repository}</h1><p id="state" data-state="${live.state}">${live.state}</p></header>
<div id="panels">${livePanels(live, sampler)}</div></body></html>
`;
}

/** A spider's web in the tab, so that the browser's request for an icon is answered. */
export const FAVICON_SVG = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="6.5" fill="none" stroke="#2f7d6d" stroke-width="1.5"/><path d="M8 1.5v13M1.5 8h13M3.4 3.4l9.2 9.2M12.6 3.4l-9.2 9.2" stroke="#2f7d6d"/></svg>`;

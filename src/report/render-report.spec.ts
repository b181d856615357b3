import { describe, expect, it } from 'vitest';
import { CrawlStats } from '../sinks/crawl-stats.js';
import type { ReportData } from './report-data.js';
import { renderReport } from './render-report.js';

/** What stats.json holds after two HTML pages, as the crawl's own counters write it. */
const summary = { ...new CrawlStats().summary(), documents: 2, indexed: 2, bytes: 2048, byType: { html: 2 }, byStatus: { '200': 2 } };

function data(over: Partial<ReportData> = {}): ReportData {
  return { repository: 'out', summary, rate: [[0, 1, 2]], spanSeconds: 1, depth: [['0', 2]], durations: [['<10 ms', 2]], pagerank: [], ...over };
}

describe('renderReport', () => {
  it('escapes what the crawled web wrote: host names, URLs, the repository name', () => {
    const html = renderReport(
      data({
        repository: '<b>out</b>',
        summary: { ...summary, topHosts: { '<img src=x onerror=alert(1)>': 2 } },
        pagerank: [{ rank: 1, url: 'http://a.test/"><script>alert(1)</script>', outDegree: 0, inDegree: 0, score: 1 }],
      }),
    );
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>out');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
  });

  it('shows the password of a page URL (a seed with userinfo) as ***', () => {
    const html = renderReport(data({ pagerank: [{ rank: 1, url: 'http://me:secret@a.test/', outDegree: 0, inDegree: 0, score: 1 }] }));
    expect(html).not.toContain('secret');
    expect(html).toContain('http://me:***@a.test/');
  });

  it('says "none" where a chart has nothing to draw (no failures, no drops, no index)', () => {
    const html = renderReport(data());
    for (const chart of ['hosts', 'dropped', 'failures', 'pagerank']) expect(html).toContain(`<p class="none" data-chart="${chart}" data-empty="true">none</p>`);
    expect(html).toContain('<svg class="chart" data-chart="status"');
  });

  it('needs nothing from the network: no script, no external reference, a CSP that allows none', () => {
    const html = renderReport(data());
    expect(html).not.toMatch(/<script|<link|src=|@import|url\(/i);
    expect(html).toContain(`content="default-src 'none'; style-src 'unsafe-inline'"`);
  });

  it('adds a chart of new, changed, unchanged and gone pages to the report of a recrawl', () => {
    expect(renderReport(data())).not.toContain('data-chart="recrawl"');
    const html = renderReport(data({ summary: { ...summary, recrawl: { new: 1, changed: 2, unchanged: 40, gone: 0 } } }));
    expect(html.match(/<svg class="chart" data-chart="recrawl"[^]*?<\/svg>/)?.[0].match(/<rect class="bar" data-value="\d+"/g)).toHaveLength(4);
  });

  it('says when the crawl was interrupted, and how much is pending', () => {
    expect(renderReport(data({ summary: { ...summary, completed: false, pending: 12 } }))).toContain('interrupted, 12 URLs pending');
  });
});

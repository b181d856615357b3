import { describe, expect, it } from 'vitest';
import { isAppShell, scriptsMayWrite } from './app-shell.js';

const page = (html: string): Buffer => Buffer.from(html);

describe('isAppShell', () => {
  it('takes a page of scripts, no link and next to no text for a shell', () => {
    expect(isAppShell(page('<!doctype html><title>App</title><div id="root"></div><script src="/app.js"></script>'))).toBe(true);
    expect(isAppShell(page('<body><noscript>You need JavaScript to run this app.</noscript><script>boot()</script></body>'))).toBe(true);
  });

  it('leaves a static page alone: a link, a paragraph of text, or no script at all', () => {
    expect(isAppShell(page('<div id="root"></div><a href="/next">next</a><script src="/app.js"></script>'))).toBe(false);
    expect(isAppShell(page(`<p>${'Plain words in the HTML itself. '.repeat(10)}</p><script src="/analytics.js"></script>`))).toBe(false);
    expect(isAppShell(page('<div id="root"></div>'))).toBe(false);
  });

  it('does not count the text inside scripts, styles and comments', () => {
    const big = 'x'.repeat(5000);
    expect(isAppShell(page(`<style>${big}</style><!-- ${big} --><script>var s = "${big}";</script><div id=app></div>`))).toBe(true);
  });
});

describe('scriptsMayWrite', () => {
  it('takes a script from a URL, or an inline one that fetches or writes the page, for one that may add links', () => {
    expect(scriptsMayWrite(page('<p>Text</p><script src="/app.js"></script>'))).toBe(true);
    expect(scriptsMayWrite(page('<p>Text</p><script>fetch("/api").then((r) => r.json())</script>'))).toBe(true);
    expect(scriptsMayWrite(page('<p>Text</p><script>document.body.appendChild(a)</script>'))).toBe(true);
  });

  it('takes a page without scripts, or whose scripts only set variables, for static', () => {
    expect(scriptsMayWrite(page('<p>Text</p><a href="/x">x</a>'))).toBe(false);
    expect(scriptsMayWrite(page('<p>Text</p><script>window.dataLayer = []; /* <a href="/n.html">n</a> */</script>'))).toBe(false);
    expect(scriptsMayWrite(page('<script type="application/ld+json">{"@type": "Article"}</script><p>Text</p>'))).toBe(false);
  });
});

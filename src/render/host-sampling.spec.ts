import { describe, expect, it } from 'vitest';
import { foundMoreLinks, HostSampling, SAMPLE_PAGES } from './host-sampling.js';

describe('HostSampling', () => {
  it('renders a host from the first sample whose browser found more links', () => {
    const s = new HostSampling();
    expect(s.choose('a.test')).toBe('sample');
    s.learn('a.test', false);
    expect(s.choose('a.test')).toBe('sample');
    s.learn('a.test', true);
    expect(s.choose('a.test')).toBe('render');
    expect(s.choose('b.test')).toBe('sample');
  });

  it(`takes a host as fetched once ${SAMPLE_PAGES} samples found nothing more, and while its samples are out`, () => {
    const s = new HostSampling();
    for (let i = 0; i < SAMPLE_PAGES; i++) expect(s.choose('a.test')).toBe('sample');
    expect(s.choose('a.test')).toBe('plain');
    for (let i = 0; i < SAMPLE_PAGES; i++) s.learn('a.test', false);
    expect(s.choose('a.test')).toBe('plain');
    s.learn('a.test', true);
    expect(s.choose('a.test')).toBe('plain');
  });
});

describe('foundMoreLinks', () => {
  it('compares resolved links, fragments dropped', () => {
    const page = 'http://a.test/dir/page.html';
    expect(foundMoreLinks(page, '<a href="x.html">x</a>', '<a href="/dir/x.html#top">x</a>')).toBe(false);
    expect(foundMoreLinks(page, '<a href="x.html">x</a>', '<a href="x.html">x</a><a href="y.html">y</a>')).toBe(true);
    expect(foundMoreLinks(page, '<a href="x.html">x</a><a href="y.html">y</a>', '<a href="x.html">x</a>')).toBe(false);
    expect(foundMoreLinks(page, '<base href="http://b.test/"><a href="x">x</a>', '<base href="http://b.test/"><a href="http://b.test/x">x</a>')).toBe(false);
  });
});

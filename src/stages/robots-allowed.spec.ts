import { beforeEach, describe, expect, it } from 'vitest';
import { robotsAllowed, robotsAllowedStep, unavailableReason } from './robots-allowed.js';
import { marbles, reports, request, robotsCacheOf } from '../../test/support/admission-values.js';

let drops: ReturnType<typeof reports>;
beforeEach(() => {
  drops = reports();
});

describe('robotsAllowed', () => {
  it('drops, as robots, URLs a cached robots.txt disallows for its agent; origins not known yet pass, for obeyRobots', async () => {
    const robots = await robotsCacheOf({
      'http://a.test': 'User-agent: tarantula\nDisallow: /private/\nAllow: /private/open\n\nUser-agent: *\nDisallow: /\n',
      'http://b.test': 'User-agent: other\nDisallow: /\n',
    });
    marbles().run(({ cold, expectObservable }) => {
      const values = {
        a: request('http://a.test/public'),
        b: request('http://a.test/private/x'),
        c: request('http://a.test/private/open'),
        d: request('http://b.test/anything'),
        e: request('http://c.test/private/x'),
        f: request('http://a.test:8080/private/x'),
      };
      expectObservable(cold('a-bcdef|', values).pipe(robotsAllowed(robots, 'tarantula/1.0', drops.report))).toBe('a--cdef|', values);
    });
    expect(drops.reported).toEqual([['robots', 'http://a.test/private/x']]);
  });

  it('drops the URLs of an origin whose robots.txt could not be had: robots-unavailable, or private-address when the guard refused it', async () => {
    const robots = await robotsCacheOf({});
    robots.giveUp('http://a.test', { state: 'unavailable', code: 'http-503', message: 'http://a.test/robots.txt: HTTP 503', retry: true });
    const refused = { state: 'unavailable', code: 'private-address', message: 'refused', retry: false } as const;
    robots.giveUp('http://b.test', refused);
    marbles().run(({ cold, expectObservable }) => {
      const values = { a: request('http://a.test/'), b: request('http://b.test/'), c: request('http://c.test/') };
      expectObservable(cold('abc|', values).pipe(robotsAllowed(robots, 'tarantula/1.0', drops.report))).toBe('--c|', values);
    });
    expect(drops.reported).toEqual([['robots-unavailable', 'http://a.test/'], ['private-address', 'http://b.test/']]);
    expect(unavailableReason(refused)).toBe('private-address');
  });

  it('tells apart origins that share a host key: another scheme, or a URL with user info', async () => {
    const robots = await robotsCacheOf({ 'http://a.test': 'User-agent: *\nDisallow: /\n', 'https://a.test': 'User-agent: *\nAllow: /\n' });
    const step = robotsAllowedStep(robots, 'tarantula/1.0', drops.report);
    const host = 'a.test';
    expect(step(request('http://a.test/1'))).toBeUndefined();
    expect(step(request('https://a.test/2'))).toEqual(request('https://a.test/2'));
    expect(step(request('http://a.test/3', { host }))).toBeUndefined();
    expect(step(request('http://u@a.test/4', { host }))).toBeUndefined();
    expect(step(request('https://a.test/5', { host }))).toEqual(request('https://a.test/5'));
    expect(drops.reported).toEqual([['robots', 'http://a.test/1'], ['robots', 'http://a.test/3'], ['robots', 'http://u@a.test/4']]);
  });
});

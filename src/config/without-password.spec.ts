import { describe, expect, it } from 'vitest';
import { passwordsHidden, withoutPassword } from './without-password.js';

describe('withoutPassword', () => {
  it('keeps a password out of the log: a proxy’s, a Redis frontier’s, a seed’s', () => {
    expect(withoutPassword('http://me:secret@proxy.test:3128')).toBe('http://me:***@proxy.test:3128/');
    expect(withoutPassword('redis://:secret@127.0.0.1:6379/0')).toBe('redis://:***@127.0.0.1:6379/0');
    expect(withoutPassword('redis://default:s%40cr%3At@redis.test:6379/0')).toBe('redis://default:***@redis.test:6379/0');
  });

  it('gives back a URL without a password as written', () => {
    expect(withoutPassword('http://proxy.test:3128')).toBe('http://proxy.test:3128');
    expect(withoutPassword('redis://me@127.0.0.1:6379/0')).toBe('redis://me@127.0.0.1:6379/0');
    expect(withoutPassword('not a url')).toBe('not a url');
    expect(withoutPassword(undefined)).toBeUndefined();
  });
});

describe('passwordsHidden', () => {
  it('hides the password of every URL a message quotes', () => {
    expect(passwordsHidden('"redis://:secret@h.test:1/0" is not a redis://HOST:PORT/DB URL')).toBe('"redis://:***@h.test:1/0" is not a redis://HOST:PORT/DB URL');
    expect(passwordsHidden('a http://me:pw@a.test/ and https://b.test/x@y')).toBe('a http://me:***@a.test/ and https://b.test/x@y');
  });
});

import { describe, expect, it } from 'vitest';
import { compilePattern } from './match-pattern.js';

describe('compilePattern', () => {
  it.each([
    ['/fish', '/fish', true],
    ['/fish', '/fish.html?id=1', true],
    ['/fish', '/Fish', false],
    ['/fish', '/catfish', false],
    ['/fish/', '/fish', false],
    ['/', '/anything', true],
    ['/a$', '/a', true],
    ['/a$', '/ab', false],
    ['/a$b', '/a$b/c', true],
    ['/*.php', '/x/y.php?q', true],
    ['/*.php$', '/x/y.php', true],
    ['/*.php$', '/x/y.php?q', false],
    ['/*.php$', '/x.php/y.php', true],
    ['/fish*.php', '/fishheads/catfish.php?parameters', true],
    ['/fish*.php', '/Fish.PHP', false],
    ['/foo/*/qux', '/foo//qux', true],
    ['/foo/*/qux', '/foo/qux', false],
    ['/a*b*c$', '/abcbc', true],
    ['/a*b*c$', '/abcb', false],
    ['/a*bc$', '/abc', true],
    ['/a*bc$', '/ac', false],
    ['/ab*b$', '/ab', false],
    ['*.gif$', '/x/y.gif', true],
    ['/**a', '/xa', true],
    ['/*', '/', true],
    ['/x*', '/', false],
    ['$', '', true],
  ])('%j matches %j: %s', (pattern, path, matches) => {
    expect(compilePattern(pattern)(path)).toBe(matches);
  });
});

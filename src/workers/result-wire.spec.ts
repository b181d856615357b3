import { describe, expect, it } from 'vitest';
import type { DocumentResult } from './document-job.js';
import { fromWire, toWire } from './result-wire.js';

const description = {
  type: 'html', isHtml: true, encoding: 'utf-8', title: 'P', base: 'http://a.test/p', noindex: false, nofollow: false,
  contentMd5: '0'.repeat(32), simhash: '0'.repeat(16), linksCut: 0,
  links: [{ url: 'http://a.test/x', text: 'X', href: 'x' }, { url: 'http://b.test/', text: '', href: 'http://b.test/' }, { url: 'http://a.test/y', text: 'Y y', href: 'HTTP://A.TEST/y' }],
};

describe('toWire and fromWire', () => {
  it('send the links as one list of strings, an href that is its url once, and give the result back as it was', () => {
    const result: DocumentResult = { id: 3, description, localPath: 'a.test/p.html', dropped: [['out-of-scope', 'http://c.test/']] };
    const wire = toWire(result);
    expect(wire).toMatchObject({ description: { links: ['http://a.test/x', 'X', 'x', 'http://b.test/', '', '', 'http://a.test/y', 'Y y', 'HTTP://A.TEST/y'] } });
    expect(fromWire(structuredClone(wire))).toEqual(result);
  });

  it('pass errors and pages without links as they are', () => {
    const error: DocumentResult = { id: 1, error: 'no room', code: 'ENOSPC' };
    expect(fromWire(toWire(error))).toEqual(error);
    const plain: DocumentResult = { id: 2, description: { ...description, links: [] }, localPath: undefined, dropped: [] };
    expect(fromWire(structuredClone(toWire(plain)))).toEqual(plain);
  });
});

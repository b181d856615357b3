import { describe, expect, it } from 'vitest';
import type { PageVisit } from '../model/page-visit.js';
import { packVisit, unpackVisit } from './recrawl-visits.js';

describe('packVisit', () => {
  it('packs a visit into one short field value and back, validators and schedule included', () => {
    const visit: PageVisit = {
      etag: 'W/"5f3a-9c1b"', lastModified: 'Tue, 01 Dec 2026 09:00:00 GMT', contentMd5: '0cc175b9c0f1b6a831c399e269772661',
      fetchedAt: Date.parse('2026-12-02T09:00:00.123Z'), changedAt: Date.parse('2026-12-01T09:00:00Z'), fetchIntervalHours: 21.333333333333332, nextFetch: Date.parse('2026-12-03T06:20:00.123Z'),
    };
    const packed = packVisit(visit);
    expect(packed.length).toBeLessThan(130);
    expect(unpackVisit(packed)).toEqual(visit);
  });

  it('keeps a visit without validators or schedule (the fixed policy, a server that sends neither)', () => {
    const visit: PageVisit = { etag: null, lastModified: null, contentMd5: '0cc175b9c0f1b6a831c399e269772661', fetchedAt: 1764579600000, changedAt: 1764579600000 };
    expect(unpackVisit(packVisit(visit))).toEqual(visit);
  });
});

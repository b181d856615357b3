import { describe, expect, it } from 'vitest';
import { droppedSeedWarning } from './dropped-seed.js';

describe('droppedSeedWarning', () => {
  it('names the reason and the key and flag that let the seed through', () => {
    expect(droppedSeedWarning('private-address')).toContain('allow-private-addresses = true (--allow-private-addresses) lets it through');
    expect(droppedSeedWarning('too-long')).toContain('max-url-length (--max-url-length, 0 = no limit)');
    expect(droppedSeedWarning('path-repetition')).toContain('max-path-repetition (--max-path-repetition, 0 = no limit)');
  });

  it('names any other reason, and says nothing of a seed given twice', () => {
    expect(droppedSeedWarning('robots')).toBe('seed not crawled (robots)');
    expect(droppedSeedWarning('duplicate')).toBeUndefined();
  });
});

import { describe, expect, it } from 'vitest';
import { youngGenerationMb } from './young-generation.js';

describe('youngGenerationMb', () => {
  it('gives two semi-spaces of 8 MiB when node was given no size', () => {
    expect(youngGenerationMb([], undefined)).toBe(16);
    expect(youngGenerationMb(['--cpu-prof', '--max-old-space-size=512'], '--enable-source-maps')).toBe(16);
  });

  it('follows the semi-space size node was started with, written as V8 takes it', () => {
    expect(youngGenerationMb(['--max-semi-space-size=8'], undefined)).toBe(16);
    expect(youngGenerationMb(['--max-semi-space-size=2'], undefined)).toBe(4);
    expect(youngGenerationMb(['--max_semi_space_size', '32'], undefined)).toBe(64);
    expect(youngGenerationMb([], ' --max-semi-space-size=4 ')).toBe(8);
  });

  it('takes the last size given, the command line after NODE_OPTIONS, and ignores one that is not a size', () => {
    expect(youngGenerationMb(['--max-semi-space-size=8'], '--max-semi-space-size=2')).toBe(16);
    expect(youngGenerationMb(['--max-semi-space-size=2', '--max-semi-space-size=4'], undefined)).toBe(8);
    expect(youngGenerationMb(['--max-semi-space-size=lots'], undefined)).toBe(16);
    expect(youngGenerationMb(['--max-semi-space-size'], undefined)).toBe(16);
  });
});

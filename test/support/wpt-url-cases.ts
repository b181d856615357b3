import { readFileSync } from 'node:fs';

/** One test object of WPT's URL test data (`urltestdata.json`; comment strings are dropped). */
export interface WptCase {
  readonly input: string;
  readonly base: string | null;
  readonly failure?: true;
  readonly relativeTo?: 'non-opaque-path-base' | 'any-base';
  readonly href?: string;
  readonly protocol?: string;
}

/** The cases of one file of `fixtures/testdata/whatwg-url/`. */
export function wptUrlCases(name = 'urltestdata.json'): WptCase[] {
  const path = new URL(`../../fixtures/testdata/whatwg-url/${name}`, import.meta.url);
  const entries = JSON.parse(readFileSync(path, 'utf8')) as unknown[];
  return entries.filter((e): e is WptCase => typeof e === 'object' && e !== null);
}

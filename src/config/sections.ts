/** The sections of Crawler.conf (SPEC §3), in the order the shipped file lists them. */
export const SECTIONS = [
  'crawler-options',
  'politeness-options',
  'fetch-options',
  'logging',
  'recrawling-options',
  'multithreading-options',
  'output-options',
  'distributed-options',
] as const;

export type SectionName = (typeof SECTIONS)[number];

/**
 * Whether a header name (already lowercased) is a section of Crawler.conf.
 *
 * @example
 * isSection('logging') //=> true
 * isSection('log-options') //=> false
 */
export function isSection(name: string): name is SectionName {
  return (SECTIONS as readonly string[]).includes(name);
}

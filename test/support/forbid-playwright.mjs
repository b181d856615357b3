// Loaded with `node --import`: any import of playwright-core fails, so a test can show a crawl never loads it.
import { register } from 'node:module';

register('data:text/javascript,' + encodeURIComponent(`
export async function resolve(specifier, context, next) {
  if (specifier === 'playwright-core' || specifier.startsWith('playwright-core/')) throw new Error('playwright-core was imported');
  return next(specifier, context);
}`));

import Module, { createRequire, register } from 'node:module';
import { pathToFileURL } from 'node:url';
import { packagePath } from '../config/package-root.js';

/** Node's CommonJS resolver: not in its types, and the only place a fallback can be put on Node 20. */
interface CommonJsResolver {
  _resolveFilename(request: string, parent: unknown, ...rest: unknown[]): string;
}

/**
 * Lets a pipeline file anywhere `import ... from 'tarantula'` (and from `rxjs`, or any other package
 * tarantula has): what the file's own folder cannot resolve is resolved from this installation. Both
 * loaders need it: tsx compiles a `.ts` file as CommonJS in a project without `"type": "module"` (npm
 * init's default) or with no package.json at all, and as an ES module otherwise. Called once.
 */
export function resolveFromPackage(): void {
  const manifest = packagePath('package.json');
  const parentURL = pathToFileURL(manifest).href;
  const hook = `export async function resolve(specifier, context, next) {
    try { return await next(specifier, context); }
    catch (err) { if (err?.code !== 'ERR_MODULE_NOT_FOUND') throw err; return next(specifier, { ...context, parentURL: ${JSON.stringify(parentURL)} }); }
  }`;
  register(`data:text/javascript,${encodeURIComponent(hook)}`);

  const fromPackage = createRequire(manifest);
  const resolver = Module as unknown as CommonJsResolver;
  const own = resolver._resolveFilename;
  // fromPackage.resolve comes back through this function: the second miss is final.
  let fallingBack = false;
  resolver._resolveFilename = function resolveFilename(this: unknown, request, parent, ...rest) {
    try {
      return own.call(this, request, parent, ...rest);
    } catch (err) {
      if (fallingBack || (err as { code?: string }).code !== 'MODULE_NOT_FOUND' || /^[./]/.test(request)) throw err;
      fallingBack = true;
      try {
        return fromPackage.resolve(request);
      } finally {
        fallingBack = false;
      }
    }
  };
}

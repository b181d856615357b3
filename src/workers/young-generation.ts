/** The semi-space size when node was given none: the one bin/tarantula gives it (docs/operations.md). */
const DEFAULT_SEMI_SPACE_MB = 8;

const SEMI_SPACE_FLAG = /^--max[-_]semi[-_]space[-_]size(?:=(.*))?$/;

/**
 * A worker thread's young generation, in MB: two semi-spaces of the size node was started with
 * (`--max-semi-space-size` on its command line or in NODE_OPTIONS, the last one given), or of 8 MiB.
 * V8 reads that flag when it makes a thread's heap, and the command sets it back to its default once
 * the main thread's is made, for node's code cache (src/cli/tarantula.ts): a worker made after that
 * has what its resource limits say, so they say the same.
 *
 * @example
 * youngGenerationMb(['--max-semi-space-size=2'], undefined) //=> 4
 */
export function youngGenerationMb(execArgv: readonly string[] = process.execArgv, nodeOptions = process.env['NODE_OPTIONS']): number {
  // NODE_OPTIONS first: node reads them before its command line, whose flags win.
  const args = [...(nodeOptions?.trim().split(/\s+/) ?? []), ...execArgv];
  let semi = DEFAULT_SEMI_SPACE_MB;
  for (let i = 0; i < args.length; i++) {
    const flag = SEMI_SPACE_FLAG.exec(args[i]!);
    if (flag === null) continue;
    const mb = Number(flag[1] ?? args[i + 1]);
    if (mb > 0) semi = mb;
  }
  return 2 * semi;
}

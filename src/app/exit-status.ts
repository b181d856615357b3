/** Exit statuses of SPEC §2. */
export const EXIT = { ok: 0, cannotRun: 1, badConfig: 2, sigint: 130, sigterm: 143 } as const;

/** An error that ends the command with its own exit status (the CLI prints its message). */
export function exitWith(exitCode: number, message: string): Error & { exitCode: number } {
  return Object.assign(new Error(message), { exitCode });
}

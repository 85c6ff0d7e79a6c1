import { renameSync, rmSync, writeFileSync } from 'node:fs';

/**
 * Writes a file whole or not at all (a temporary file renamed into place), so a run killed while
 * writing leaves no half-written session, check or pairs file for a later command to trip over.
 * A failure is given to `fail` as one line naming the file, for the caller's own error type.
 */
export function writeWhole(path: string, text: string, what: string, fail: (message: string) => Error): void {
  const temporary = `${path}.${process.pid}.partial`;
  try {
    writeFileSync(temporary, text);
    renameSync(temporary, path);
  } catch (e) {
    rmSync(temporary, { force: true });
    throw fail(`cannot write the ${what} to "${path}": ${(e as Error).message}`);
  }
}

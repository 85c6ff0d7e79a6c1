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
    // Where the temporary file could not be made (a parent that is a file: ENOTDIR), removing it fails too.
    try {
      rmSync(temporary, { force: true });
    } catch {
      // nothing was written there
    }
    // The reason without the temporary file's name ("ENOTDIR: not a directory, open '....partial'").
    throw fail(`cannot write the ${what} to "${path}": ${(e as Error).message.replace(/, \w+ '[^']*'$/, '')}`);
  }
}

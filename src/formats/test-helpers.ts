/** Helpers for the format tests (not imported by production code). */
import { readFileSync } from 'node:fs';
import { FormatError } from './format-error.ts';

/** Runs `parse` and returns the FormatError it throws; fails the test if it returns or throws another error. */
export function formatErrorOf(parse: () => unknown): FormatError {
  try {
    parse();
  } catch (error) {
    if (error instanceof FormatError) return error;
    throw new Error(`expected a FormatError, got ${String(error)}`);
  }
  throw new Error('expected a FormatError, but parsing succeeded');
}

/** Reads a file under src/formats/fixtures/. */
export function readFixture(name: string): string {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
}

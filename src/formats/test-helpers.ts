/** Helpers for the format tests (not imported by production code). */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FormatError } from './format-error.ts';
import { thrownBy } from '../engine/testing/thrown.ts';

/** Runs `parse` and returns the FormatError it throws; fails the test if it returns or throws another error. */
export function formatErrorOf(parse: () => unknown): FormatError {
  return thrownBy(parse, FormatError);
}

/** Whether `text` is JSON to the platform's own parser (what a file must be before an importer reads it). */
export function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Reads a file under src/formats/fixtures/. */
export function readFixture(name: string): string {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
}

/**
 * The real trace samples beside the repository (`../shared/samples`), or null when this checkout has
 * none (a fresh clone): tests that read them skip, saying so. `AGENTBLAME_SHARED` names the shared
 * folder when the checkout is not beside it (a git worktree elsewhere).
 */
export function sharedSamplesDir(): string | null {
  const shared = process.env.AGENTBLAME_SHARED ?? fileURLToPath(new URL('../../../shared', import.meta.url));
  const samples = join(shared, 'samples');
  return existsSync(samples) ? samples : null;
}

/** Why tests that need the samples were skipped. */
export const NO_SAMPLES = 'skipped: ../shared/samples is not beside this checkout (set AGENTBLAME_SHARED to its folder to run these)';

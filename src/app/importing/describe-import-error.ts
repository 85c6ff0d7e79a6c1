import { FormatError } from '../../formats/format-error.ts';
import type { ImportProblem } from './import-protocol.ts';

/** Turns whatever an importer threw into a plain problem for the page (Comlink drops error fields). */
export function describeImportError(error: unknown): ImportProblem {
  if (error instanceof FormatError) {
    return {
      message: error.message,
      path: error.path,
      ...(error.line === undefined ? {} : { line: error.line }),
      ...(error.column === undefined ? {} : { column: error.column }),
    };
  }
  return { message: error instanceof Error ? error.message : String(error) };
}

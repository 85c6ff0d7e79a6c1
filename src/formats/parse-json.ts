import { FormatError } from './format-error.ts';
import { findJsonSyntaxError, lineAndColumn } from './json-syntax.ts';

/** Strips a UTF-8 byte order mark, which some editors write and JSON.parse rejects. */
export function stripByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * Parses JSON text. On a syntax error throws a FormatError naming line and column, found by
 * re-scanning the text (only on failure, so valid files pay for JSON.parse alone).
 *
 * @param where path prefix for the error ('' for a whole file, `line 5 (cases[3])` for a JSONL line)
 * @param firstLine line number of the text's first line in the file (JSONL lines are parsed one by one)
 */
export function parseJson(text: string, where = '', firstLine = 1): unknown {
  try {
    return JSON.parse(text);
  } catch (cause) {
    const problem = findJsonSyntaxError(text);
    if (problem === null) {
      // Unreachable for a correct scanner; keep the engine's own message rather than hide the error.
      throw new FormatError(where, `invalid JSON: ${cause instanceof Error ? cause.message : String(cause)}`);
    }
    const { line, column } = lineAndColumn(text, problem.offset);
    const fileLine = firstLine + line - 1;
    const at = where === '' ? `line ${fileLine}, column ${column}` : `column ${column}`;
    throw new FormatError(where, `invalid JSON at ${at}: ${problem.message}`, { line: fileLine, column });
  }
}

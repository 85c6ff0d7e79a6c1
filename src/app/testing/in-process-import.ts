/**
 * The import worker's reading of a file, run in the test's own thread: the same parse and summary
 * (parseOpenedFile, summarizeParsed), with the progress the worker reports, and the answer shaped
 * as importInWorker returns it.
 */
import { describeImportError } from '../importing/describe-import-error.ts';
import type { ImportResult } from '../importing/import-client.ts';
import type { ImportProgress } from '../importing/import-protocol.ts';
import { summarizeParsed } from '../importing/summarize-parsed.ts';
import { parseOpenedFile } from '../../session/opened-input.ts';

export async function importInProcess(source: Blob | string, fileName: string, onProgress: (progress: ImportProgress) => void): Promise<ImportResult> {
  try {
    const text = typeof source === 'string' ? source : await source.text();
    onProgress({ phase: 'validating', loaded: text.length, total: text.length });
    const parsed = summarizeParsed(parseOpenedFile(text, fileName));
    if (!parsed.outcome.ok) return parsed.outcome;
    return { ok: true, outcome: parsed.outcome, cases: parsed.cases, games: parsed.games };
  } catch (error) {
    return { ok: false, problem: describeImportError(error) };
  }
}

/** A JSON trace text: cases `ids` (a case whose id starts with `pass` passes), with a definition when given. */
export function traceText(ids: readonly string[], pipeline?: { name: string; source: string }): string {
  return JSON.stringify({ format: 'agentblame-trace', version: 1, ...(pipeline && { pipeline }), cases: ids.map((id) => ({ id, inputs: { question: `question ${id}`, ...(id.startsWith('pass') && { pass: true }) } })) });
}

/**
 * The import worker: reads a dropped or picked file, detects its format and validates it off the
 * page's thread, reporting progress. The parsed cases stay here until the page pulls them in
 * chunks (a 50 MB trace would otherwise arrive as one message that takes the page long to unpack).
 */
import * as Comlink from 'comlink';
import type { CaseDef } from '../../engine/types.ts';
import type { TableGame } from '../../formats/game.ts';
import type { ImportOutcome, ImportProblem, ImportProgress } from './import-protocol.ts';
import type { RecordedRunFile, Predictions } from '../../runs/index.ts';
import { describeImportError } from './describe-import-error.ts';
import { readBlobText } from './read-blob-text.ts';
import { summarizeParsed } from './summarize-parsed.ts';
import { parseOpenedFile } from '../../session/opened-input.ts';

/** One file of a many-file open: its runs or predictions, or what it is instead, or its problem. */
export type RunFileOutcome =
  | { fileName: string; ok: true; runs?: RecordedRunFile; predictions?: Predictions }
  | { fileName: string; ok: false; kind?: string; problem?: ImportProblem };

let cases: CaseDef[] = [];
let games: TableGame[] = [];

const api = {
  /** Reads and validates one file; `source` is a Blob (file) or text (pasted JSON). */
  async open(source: Blob | string, fileName: string, onProgress?: (progress: ImportProgress) => void): Promise<ImportOutcome> {
    cases = [];
    games = [];
    try {
      const text = typeof source === 'string' ? source : await readBlobText(source, (loaded, total) => onProgress?.({ phase: 'reading', loaded, total }));
      const size = typeof source === 'string' ? source.length : source.size;
      onProgress?.({ phase: 'validating', loaded: size, total: size });
      const parsed = summarizeParsed(parseOpenedFile(text, fileName));
      cases = parsed.cases;
      games = parsed.games;
      return parsed.outcome;
    } catch (error) {
      return { ok: false, problem: describeImportError(error) };
    }
  },

  takeCases(start: number, count: number): CaseDef[] {
    return cases.slice(start, start + count);
  },

  takeGames(start: number, count: number): TableGame[] {
    return games.slice(start, start + count);
  },

  /**
   * Reads many files at once (a dropped folder of logs) in this one worker: the recorded runs of
   * each, or why a file is not one (`kind` says what it is instead, so the page can open it the usual way).
   */
  async openRunFiles(sources: { source: Blob; fileName: string }[]): Promise<RunFileOutcome[]> {
    const out: RunFileOutcome[] = [];
    for (const { source, fileName } of sources) {
      try {
        const input = parseOpenedFile(await readBlobText(source, () => {}), fileName);
        if (input.kind === 'runs') out.push({ fileName, ok: true, runs: input.runs });
        else if (input.kind === 'predictions') out.push({ fileName, ok: true, predictions: input.predictions });
        else out.push({ fileName, ok: false, kind: input.kind });
      } catch (error) {
        out.push({ fileName, ok: false, problem: describeImportError(error) });
      }
    }
    return out;
  },

  /** Frees the parsed data once the page has it all. */
  clear(): void {
    cases = [];
    games = [];
  },
};

export type ImportWorkerApi = typeof api;

Comlink.expose(api);

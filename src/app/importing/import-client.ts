/**
 * The page's side of the import worker: opens a file off the main thread, then pulls its cases over
 * in chunks, yielding between them so the page stays responsive while a large trace arrives.
 */
import * as Comlink from 'comlink';
import type { CaseDef } from '../../engine/types.ts';
import type { TableGame } from '../../formats/game.ts';
import { createImportWorker } from './create-import-worker.ts';
import type { ImportWorkerApi } from './import.worker.ts';
import { IMPORT_CHUNK, type ImportOutcome, type ImportProgress } from './import-protocol.ts';

export type ImportResult =
  | { ok: true; outcome: Extract<ImportOutcome, { ok: true }>; cases: CaseDef[]; games: TableGame[] }
  | Extract<ImportOutcome, { ok: false }>;

function yieldToPage(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

export async function importInWorker(source: Blob | string, fileName: string, onProgress: (progress: ImportProgress) => void): Promise<ImportResult> {
  const worker = createImportWorker();
  const api = Comlink.wrap<ImportWorkerApi>(worker);
  try {
    const outcome = await api.open(source, fileName, Comlink.proxy(onProgress));
    if (!outcome.ok) return outcome;
    const cases: CaseDef[] = [];
    for (let start = 0; start < outcome.caseCount; start += IMPORT_CHUNK) {
      cases.push(...(await api.takeCases(start, IMPORT_CHUNK)));
      await yieldToPage();
    }
    const games: TableGame[] = [];
    for (let start = 0; start < outcome.gameCount; start += IMPORT_CHUNK) {
      games.push(...(await api.takeGames(start, IMPORT_CHUNK)));
      await yieldToPage();
    }
    return { ok: true, outcome, cases, games };
  } finally {
    worker.terminate();
  }
}

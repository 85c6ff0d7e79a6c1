/** Reads many files in one import worker (a dropped folder of Who&When logs: one worker, not 184). */
import * as Comlink from 'comlink';
import { createImportWorker } from '../importing/create-import-worker.ts';
import type { ImportWorkerApi, RunFileOutcome } from '../importing/import.worker.ts';

export type { RunFileOutcome };

export async function openRunFiles(files: readonly { file: File; path: string }[]): Promise<RunFileOutcome[]> {
  const worker = createImportWorker();
  const api = Comlink.wrap<ImportWorkerApi>(worker);
  try {
    return await api.openRunFiles(files.map(({ file, path }) => ({ source: file, fileName: path })));
  } finally {
    worker.terminate();
  }
}

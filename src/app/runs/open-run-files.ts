/** Reads many files in one import worker (a dropped folder of Who&When logs: one worker, not 184). */
import * as Comlink from 'comlink';
import type { ImportWorkerApi, RunFileOutcome } from '../../../workers/import.worker.ts';

export type { RunFileOutcome };

export async function openRunFiles(files: readonly { file: File; path: string }[]): Promise<RunFileOutcome[]> {
  const worker = new Worker(new URL('../../../workers/import.worker.ts', import.meta.url), { type: 'module', name: 'agentblame-import' });
  const api = Comlink.wrap<ImportWorkerApi>(worker);
  try {
    return await api.openRunFiles(files.map(({ file, path }) => ({ source: file, fileName: path })));
  } finally {
    worker.terminate();
  }
}

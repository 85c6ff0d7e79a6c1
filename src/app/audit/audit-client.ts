import * as Comlink from 'comlink';
import type { CaseResult } from '../../engine/types.ts';
import type { AuditOutcome, AuditWorkerApi } from './audit.worker.ts';

/** Audits a credit file's text (null: the built-in signals alone) against the results in a worker of its own, ended when done. */
export async function auditInWorker(text: string | null, results: CaseResult[], seed: number): Promise<AuditOutcome> {
  const worker = new Worker(new URL('./audit.worker.ts', import.meta.url), { type: 'module', name: 'agentblame-audit' });
  try {
    return await Comlink.wrap<AuditWorkerApi>(worker).run(text, results, seed);
  } finally {
    worker.terminate();
  }
}

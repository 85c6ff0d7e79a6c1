/** Starts one import Web Worker. Vite bundles the worker from this literal `new URL(...)`. */
export function createImportWorker(): Worker {
  return new Worker(new URL('./import.worker.ts', import.meta.url), { type: 'module', name: 'agentblame-import' });
}

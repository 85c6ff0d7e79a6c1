/** Starts one analysis Web Worker. Vite bundles the worker from this literal `new URL(...)`. */
export function createAnalysisWorker(): Worker {
  return new Worker(new URL('./analysis.worker.ts', import.meta.url), {
    type: 'module',
    name: 'agentblame-analysis',
  });
}

import type { AnalysisWorker } from '../../pool/page/protocol.ts';
import { createFramedWorker } from './analysis-frame.ts';
import { createWaitBuffer, writeWaitChunk, type WaitChunk } from '../../pool/page/wait-channel.ts';
// The worker's bundle (vite.config.ts: one classic script), by URL: it is started from a frame.
import analysisWorkerUrl from './analysis.worker.ts?worker&url';

let warned = false;

/**
 * Starts one analysis worker. The built site starts it in a sandboxed frame of its own process
 * (analysis-frame.ts), so its running out of memory cannot take the tab down. The dev server
 * serves the worker as modules, which a sandboxed frame cannot load, so there it starts in the
 * page's own process, and says so once.
 */
export function createAnalysisWorker(): AnalysisWorker {
  if (!import.meta.env.DEV) return createFramedWorker(analysisWorkerUrl);
  if (!warned) {
    warned = true;
    console.warn('agentblame (dev server): analysis workers run in the page\'s process, not in sandboxed frames; a definition that runs out of memory takes this tab down. The built site (npm run build) contains them.');
  }
  const worker = new Worker(analysisWorkerUrl, { type: 'module', name: 'agentblame-analysis' });
  const { port1, port2 } = new MessageChannel();
  // Same agent cluster as the page: the page itself writes the responses its waiting rounds wait for.
  const waitBuffer = createWaitBuffer();
  worker.postMessage({ agentblameConnect: port2, ...(waitBuffer && { agentblameWaitBuffer: waitBuffer }) }, [port2]);
  return Object.assign(port1, {
    terminate: () => {
      worker.terminate();
      port1.close();
    },
    ...(waitBuffer && { sendWaitChunk: (chunk: WaitChunk) => writeWaitChunk(waitBuffer, chunk) }),
  });
}

/** Worker thread of the CRN study: computes one (mode, sampling) block of estimates on request. */
import { parentPort } from 'node:worker_threads';
import { loadDemo } from '../lib/demos.ts';
import { estimateBlock, type BlockRequest } from './crn-study.ts';

const port = parentPort;
if (!port) throw new Error('crn-worker.ts must run as a worker thread');
// Loaded (through tsx) and the definition compiled: the study's timing starts after this.
loadDemo('stochastic-rag').sandboxed();
port.postMessage({ ready: true });
port.on('message', (request: BlockRequest) => {
  try {
    port.postMessage({ ok: true, estimates: estimateBlock(loadDemo('stochastic-rag'), request) });
  } catch (error) {
    port.postMessage({ ok: false, message: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  }
});

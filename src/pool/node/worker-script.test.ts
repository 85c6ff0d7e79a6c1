import { existsSync } from 'node:fs';
import { MessageChannel, Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { REFUND_POLICY_SOURCE } from '../../sandbox/testing/refund-policy.ts';
import { PROGRESS_SLOTS, type WorkerReply } from './protocol.ts';
import { analysisWorkerScript } from './worker-script.ts';

/** Start a worker from `url`, ask it to describe the refund policy, and return its replies. */
async function describeWith(url: URL): Promise<WorkerReply[]> {
  // As its process starts it (workers/analysis.process.mjs): progress slots and the channel of waiting rounds.
  const { port2 } = new MessageChannel();
  const wait = { port: port2, signal: new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT) };
  const worker = new Worker(url, { workerData: { progress: new SharedArrayBuffer(PROGRESS_SLOTS * Int32Array.BYTES_PER_ELEMENT), wait }, transferList: [port2] });
  const replies: WorkerReply[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      worker.on('error', reject);
      worker.on('message', (reply: WorkerReply) => {
        replies.push(reply);
        if (reply.type === 'ready') worker.postMessage({ type: 'describe', job: 1, source: REFUND_POLICY_SOURCE, fileName: 'refund.js' });
        else resolve();
      });
    });
  } finally {
    await worker.terminate();
  }
  return replies;
}

describe('analysis worker entry', () => {
  it('is a cached single-file bundle that starts and answers', async () => {
    const script = analysisWorkerScript();
    expect(script.url.pathname).toMatch(/analysis-worker-[0-9a-f]{24}\.mjs$/);
    expect(existsSync(script.url)).toBe(true);
    const replies = await describeWith(script.url);
    expect(replies.map((r) => r.type)).toEqual(['ready', 'described']);
    expect(replies[1]).toMatchObject({ job: 1, description: { name: 'refund-policy' } });
  });

  it('has a tsx bootstrap fallback that behaves the same', async () => {
    const replies = await describeWith(new URL('../../../workers/analysis.node.bootstrap.mjs', import.meta.url));
    expect(replies.map((r) => r.type)).toEqual(['ready', 'described']);
    expect(replies[1]).toMatchObject({ job: 1, description: { name: 'refund-policy' } });
  });
});

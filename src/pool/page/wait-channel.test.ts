/**
 * The channel a page worker waits on for a model response (wait-channel.ts): a real thread blocks
 * on the buffer while this one plays the page and the frame that writes the answer in.
 */
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { ModelAnswer, PendingRequest } from '../../engine/model-call.ts';
import { createWaitBuffer, isModelWaitMessage, isWaitMoreMessage, waitChunks, writeWaitChunk, type WaitAnswer, type WaitChunk } from './wait-channel.ts';

const request = (key: string): PendingRequest => ({ key, step: 'answer', request: { model: 'toy-1', messages: [{ role: 'user', content: key }] } });

/** Runs the stand-in worker over `requests`, answering each wait with `answerOf`; the page's messages seen, and what the worker got. */
async function waitThrough(requests: PendingRequest[], answerOf: (request: PendingRequest) => WaitAnswer, chunkBytes: number) {
  const buffer = createWaitBuffer(chunkBytes)!;
  const worker = new Worker(new URL('./testing/wait-worker.mjs', import.meta.url), { workerData: { buffer, requests } });
  const seen = { waits: [] as string[], more: 0 };
  let chunks: WaitChunk[] = [];
  try {
    return await new Promise<{ done: (ModelAnswer | null)[]; declined: string | null; seen: typeof seen }>((resolve, reject) => {
      worker.on('error', reject);
      worker.on('message', (message: unknown) => {
        if (isModelWaitMessage(message)) {
          seen.waits.push(message.agentblameModelWait.key);
          chunks = waitChunks(answerOf(message.agentblameModelWait), chunkBytes);
          // Answered later, as the page does after its fetch: the worker is asleep by then.
          setTimeout(() => writeWaitChunk(buffer, chunks.shift()!), 20);
        } else if (isWaitMoreMessage(message)) {
          seen.more++;
          writeWaitChunk(buffer, chunks.shift()!);
        } else resolve({ ...(message as { done: (ModelAnswer | null)[]; declined: string | null }), seen });
      });
    });
  } finally {
    await worker.terminate();
  }
}

describe('the wait channel', () => {
  it('a blocked worker gets each response in turn, a large one in several chunks', async () => {
    const long = 'é'.repeat(300);
    const answerOf = (r: PendingRequest): WaitAnswer => ({ answer: { text: r.key === 'b' ? long : `answer ${r.key}`, finish: 'stop', usage: { input: 1, output: 2 } } });
    const { done, declined, seen } = await waitThrough([request('a'), request('b'), request('c')], answerOf, 64);
    expect(seen.waits).toEqual(['a', 'b', 'c']);
    expect(done.map((answer) => (answer as { text: string }).text)).toEqual(['answer a', long, 'answer c']);
    // 600 bytes of text in 64-byte chunks: the worker asked for every chunk after the first.
    expect(seen.more).toBeGreaterThanOrEqual(9);
    expect(declined).toBeNull();
  });

  it('an error answer declines and is kept as the case error', async () => {
    const { done, declined } = await waitThrough([request('a')], () => ({ error: 'model requests of step "answer" failed: HTTP 500' }), 64);
    expect(done).toEqual([null]);
    expect(declined).toBe('model requests of step "answer" failed: HTTP 500');
  });

  it('splits answers into chunks that fit, the last marked', () => {
    const chunks = waitChunks({ answer: { text: 'x'.repeat(100), finish: 'stop', usage: { input: 1, output: 1 } } }, 32);
    expect(chunks.every((chunk) => chunk.bytes.length <= 32)).toBe(true);
    expect(chunks.map((chunk) => chunk.last)).toEqual([...chunks.slice(1).map(() => false), true]);
    expect(waitChunks({ error: '' }, 1 << 20)).toHaveLength(1);
  });
});

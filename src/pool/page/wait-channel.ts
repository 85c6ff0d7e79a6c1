/**
 * How a page analysis worker waits, blocked, for a model response (a waiting round:
 * docs/replay.md, "Time"; docs/model-steps.md, "Waiting rounds"). The browser's counterpart of the
 * command's worker threads (workers/analysis.node.ts), which read their answer from a MessagePort
 * synchronously; a browser worker cannot, so the answer comes through shared memory:
 *
 * - the worker posts `{ agentblameModelWait: request }` to the page and sleeps on the buffer
 *   (Atomics.wait);
 * - the page fetches the response and sends it, encoded, in chunks of at most the buffer's data
 *   size, to whoever holds the buffer beside the worker: the sandboxed frame that started it
 *   (public/analysis-frame.html's child script, which repeats writeWaitChunk) or, on the dev
 *   server, the page itself;
 * - that writer copies the chunk in, bumps the sequence number and wakes the worker; a chunk that is
 *   not the last makes the worker post `{ agentblameModelWaitMore: true }` for the next.
 *
 * Shared memory exists only where the worker is cross-origin isolated (COOP + COEP on the page and
 * the frame, `allow="cross-origin-isolated"` on the sandboxed child): elsewhere a worker has no
 * buffer and its rounds restart, as before.
 */
import type { ModelAnswer, PendingRequest } from '../../engine/model-call.ts';
import type { WaitingResolver } from '../../engine/model-context.ts';

/** Header of the buffer, in Int32 slots: the sequence number of the last chunk written, its byte length, 1 when it is the last. */
export const WAIT_SEQUENCE = 0;
export const WAIT_LENGTH = 1;
export const WAIT_LAST = 2;
export const WAIT_HEADER_BYTES = 16;
/** Data bytes of a buffer: a larger answer goes in several chunks. */
export const WAIT_CHUNK_BYTES = 1 << 20;

/** What the page gives a waiting worker: the response, or why there is none (the case's error). */
export type WaitAnswer = { answer: ModelAnswer } | { error: string };

/** A piece of an encoded WaitAnswer, as the writer copies it into the buffer. */
export interface WaitChunk {
  bytes: Uint8Array;
  last: boolean;
}

/** Posted by a waiting worker: the request it lacks (the page answers with WaitChunks). */
export interface ModelWaitMessage {
  agentblameModelWait: PendingRequest;
}

export function isModelWaitMessage(data: unknown): data is ModelWaitMessage {
  return typeof data === 'object' && data !== null && typeof (data as Partial<ModelWaitMessage>).agentblameModelWait === 'object';
}

/** Posted by a waiting worker that read a chunk which was not the last. */
export interface WaitMoreMessage {
  agentblameModelWaitMore: true;
}

export function isWaitMoreMessage(data: unknown): data is WaitMoreMessage {
  return typeof data === 'object' && data !== null && (data as Partial<WaitMoreMessage>).agentblameModelWaitMore === true;
}

/** A buffer for one worker's waits, or null where shared memory is not available (not cross-origin isolated). */
export function createWaitBuffer(chunkBytes = WAIT_CHUNK_BYTES): SharedArrayBuffer | null {
  if (typeof SharedArrayBuffer !== 'function' || (globalThis as { crossOriginIsolated?: boolean }).crossOriginIsolated === false) return null;
  return new SharedArrayBuffer(WAIT_HEADER_BYTES + chunkBytes);
}

/** The chunks of an answer for a buffer of `chunkBytes` data bytes (at least one, the last marked). */
export function waitChunks(answer: WaitAnswer, chunkBytes = WAIT_CHUNK_BYTES): WaitChunk[] {
  const bytes = new TextEncoder().encode(JSON.stringify(answer));
  const chunks: WaitChunk[] = [];
  for (let at = 0; at === 0 || at < bytes.length; at += chunkBytes) {
    const end = Math.min(bytes.length, at + chunkBytes);
    chunks.push({ bytes: bytes.slice(at, end), last: end === bytes.length });
  }
  return chunks;
}

/**
 * The writer's part: copies a chunk in and wakes the worker. public/analysis-frame.html's child
 * script does exactly this (it cannot import); keep the two the same.
 */
export function writeWaitChunk(buffer: SharedArrayBuffer, chunk: WaitChunk): void {
  const header = new Int32Array(buffer, 0, WAIT_HEADER_BYTES / 4);
  new Uint8Array(buffer, WAIT_HEADER_BYTES).set(chunk.bytes);
  Atomics.store(header, WAIT_LENGTH, chunk.bytes.length);
  Atomics.store(header, WAIT_LAST, chunk.last ? 1 : 0);
  Atomics.add(header, WAIT_SEQUENCE, 1);
  Atomics.notify(header, WAIT_SEQUENCE);
}

/**
 * The worker's resolver for a waiting round: posts the request, sleeps until the page's answer is
 * in the buffer (asking for each further chunk) and gives the response; an error answer declines
 * (ModelContext then suspends the round as without a resolver) and is kept in `declined`.
 */
export function waitingResolver(buffer: SharedArrayBuffer, post: (message: ModelWaitMessage | WaitMoreMessage) => void, declined: { error: string | null }): WaitingResolver {
  const header = new Int32Array(buffer, 0, WAIT_HEADER_BYTES / 4);
  const data = new Uint8Array(buffer, WAIT_HEADER_BYTES);
  return (request) => {
    // Read before posting: a chunk written after this read moves it, so the wait returns at once.
    let seen = Atomics.load(header, WAIT_SEQUENCE);
    post({ agentblameModelWait: request });
    const parts: Uint8Array[] = [];
    for (;;) {
      Atomics.wait(header, WAIT_SEQUENCE, seen);
      const now = Atomics.load(header, WAIT_SEQUENCE);
      if (now === seen) continue;
      seen = now;
      // TextDecoder refuses views of shared memory: copy out.
      parts.push(data.slice(0, Atomics.load(header, WAIT_LENGTH)));
      if (Atomics.load(header, WAIT_LAST) === 1) break;
      post({ agentblameModelWaitMore: true });
    }
    const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
    let at = 0;
    for (const part of parts) {
      bytes.set(part, at);
      at += part.length;
    }
    const answer = JSON.parse(new TextDecoder().decode(bytes)) as WaitAnswer;
    if ('answer' in answer) return answer.answer;
    declined.error = answer.error;
    return null;
  };
}

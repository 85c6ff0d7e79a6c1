// A child process that hosts one analysis worker thread for the NodeAnalysisPool (see
// src/pool/node/worker-process.ts). Plain JavaScript: it only relays messages, so it needs no loader.
//
// Why a process around the thread: some allocations in a definition (`new Array(1e8).fill(7)`,
// an array grown by push past V8's largest size) end in a fatal V8 error that aborts the whole
// process, resource limits or not. Here that ends this child only; the pool fails the case and
// starts another. The thread writes its progress (case and step) into a SharedArrayBuffer, which
// this process reads when the pool asks, even while the thread spins.
import { MessageChannel, Worker } from 'node:worker_threads';

const config = JSON.parse(process.argv[2]);
const progressBuffer = new SharedArrayBuffer(config.progressSlots * Int32Array.BYTES_PER_ELEMENT);
const progress = new Int32Array(progressBuffer);
Atomics.store(progress, 0, config.idlePhase);

const send = (message) => {
  if (process.connected) process.send(message);
};
/**
 * Report why the thread ended and where it was (its last progress: the pool blames that case),
 * then end this process (only once the report is written).
 */
const endWith = (message) => {
  if (!process.connected) process.exit(0);
  const where = { phase: Atomics.load(progress, 0), case: Atomics.load(progress, 1), job: Atomics.load(progress, 2) };
  process.send({ type: 'worker-error', message, where }, () => process.exit(0));
};

// A case that waits for a model response blocks its thread (protocol.ts, 'model-wait'): the
// pool's answer goes through this channel, which the thread reads without its event loop
// (receiveMessageOnPort), and `waitSignal[0]` counts answers sent, so the thread sleeps on it.
const waitChannel = new MessageChannel();
const waitSignalBuffer = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
const waitSignal = new Int32Array(waitSignalBuffer);

const worker = new Worker(new URL(config.url), {
  workerData: { progress: progressBuffer, wait: { port: waitChannel.port2, signal: waitSignalBuffer } },
  transferList: [waitChannel.port2],
  resourceLimits: { maxOldGenerationSizeMb: config.memoryLimitMb },
  execArgv: config.execArgv,
  // Nothing the worker prints may reach the command's stdout (kept for --json); stderr passes through.
  stdout: true,
});
worker.stdout.resume();

worker.on('message', (reply) => send(reply));
let ended = false;
const end = (message) => {
  if (ended) return;
  ended = true;
  endWith(message);
};
worker.on('messageerror', () => end('a message from the analysis worker could not be decoded (a value too deep or too large)'));
worker.on('error', (error) => end(error instanceof Error ? error.message : String(error)));
worker.on('exit', (code) => end(`exited with code ${code}`));

process.on('message', (message) => {
  if (message && message.type === 'progress?') {
    send({ type: 'progress', phase: Atomics.load(progress, 0), case: Atomics.load(progress, 1), job: Atomics.load(progress, 2) });
  } else if (message && message.type === 'model-answer') {
    // Queued on the port before the counter moves: a thread woken by it finds the answer there.
    waitChannel.port1.postMessage(message);
    Atomics.add(waitSignal, 0, 1);
    Atomics.notify(waitSignal, 0);
  } else {
    worker.postMessage(message);
  }
});
// The pool went away (closed, or the command ended): stop at once. This module is loaded
// asynchronously, so the channel may have closed before the listener was added (a pool that
// exited right after starting us): then `connected` is already false and no event will come.
process.on('disconnect', () => process.exit(0));
if (!process.connected) process.exit(0);

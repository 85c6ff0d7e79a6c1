// A stand-in analysis worker for wait-channel.test.ts: a Node worker thread that asks, through
// waitingResolver, for each request of workerData.requests in turn and posts what it got.
import { parentPort, workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
const { waitingResolver } = await import('../wait-channel.ts');
const declined = { error: null };
const resolve = waitingResolver(workerData.buffer, (message) => parentPort.postMessage(message), declined);
const got = workerData.requests.map((request) => resolve(request));
parentPort.postMessage({ done: got, declined: declined.error });

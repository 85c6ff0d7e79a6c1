// Entry of a bench worker thread: load the TypeScript module named in workerData through tsx.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.module);

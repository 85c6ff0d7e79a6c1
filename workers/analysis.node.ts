/**
 * Node worker thread for AnalysisPool: compiles pipeline definitions in the SES sandbox and
 * analyses the cases of each request (a small batch) one after another, answering each as soon as
 * it is done. Before every case, step and metric call it records what runs in a
 * SharedArrayBuffer, so the pool's watchdog can name the case and step if it has to terminate us.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DefinitionError } from '../src/engine/index.ts';
import { analyzeSourceCaseRound, describeSource } from '../src/sandbox/analyze-source.ts';
import type { ModelAnswer } from '../src/engine/model-call.ts';
import { ensureLockdown } from '../src/sandbox/lockdown.ts';
import {
  PHASE_DEFINITION,
  PHASE_IDLE,
  PHASE_METRIC,
  PROGRESS_CASE,
  PROGRESS_PHASE,
  type WorkerReply,
  type WorkerRequest,
} from '../src/node/protocol.ts';

const port = parentPort;
if (port === null) throw new Error('workers/analysis.node.ts must run as a worker thread');
const progress = new Int32Array((workerData as { progress: SharedArrayBuffer }).progress);

ensureLockdown();

const send = (reply: WorkerReply): void => port.postMessage(reply);

const hooks = {
  onStepStart: (stepIndex: number) => Atomics.store(progress, PROGRESS_PHASE, stepIndex),
  onMetricStart: () => Atomics.store(progress, PROGRESS_PHASE, PHASE_METRIC),
};

function failure(job: number, index: number, error: unknown): WorkerReply {
  return {
    type: 'failed',
    job,
    index,
    message: error instanceof Error ? error.message : String(error),
    definitionError: error instanceof DefinitionError,
  };
}

port.on('message', (request: WorkerRequest) => {
  if (request.type === 'describe') {
    Atomics.store(progress, PROGRESS_PHASE, PHASE_DEFINITION);
    try {
      send({ type: 'described', job: request.job, description: describeSource(request.source, request.fileName) });
    } catch (error) {
      send(failure(request.job, 0, error));
    } finally {
      Atomics.store(progress, PROGRESS_PHASE, PHASE_IDLE);
    }
    return;
  }
  for (let index = 0; index < request.cases.length; index++) {
    Atomics.store(progress, PROGRESS_CASE, index);
    Atomics.store(progress, PROGRESS_PHASE, PHASE_DEFINITION);
    try {
      const known = request.answers?.[index];
      const answers = new Map<string, ModelAnswer>(known ? Object.entries(known) : []);
      const round = analyzeSourceCaseRound(request.source, request.cases[index], request.settings, answers, hooks, request.fileName);
      if (round.kind === 'pending') send({ type: 'pending', job: request.job, index, requests: round.requests });
      else send({ type: 'result', job: request.job, index, result: round.result });
    } catch (error) {
      send(failure(request.job, index, error));
    }
  }
  Atomics.store(progress, PROGRESS_PHASE, PHASE_IDLE);
});

send({ type: 'ready' });

/**
 * Node worker thread for AnalysisPool: compiles pipeline definitions in the SES sandbox and
 * analyses one case per request. Before every step and metric call it records what runs in a
 * SharedArrayBuffer, so the pool's watchdog can name the step if it has to terminate us.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { DefinitionError } from '../src/engine/index.ts';
import { analyzeSourceCase, describeSource } from '../src/sandbox/analyze-source.ts';
import { ensureLockdown } from '../src/sandbox/lockdown.ts';
import { PHASE_DEFINITION, PHASE_IDLE, PHASE_METRIC, type WorkerReply, type WorkerRequest } from '../src/node/protocol.ts';

const port = parentPort;
if (port === null) throw new Error('workers/analysis.node.ts must run as a worker thread');
const progress = new Int32Array((workerData as { progress: SharedArrayBuffer }).progress);

ensureLockdown();

const send = (reply: WorkerReply): void => port.postMessage(reply);

const hooks = {
  onStepStart: (stepIndex: number) => Atomics.store(progress, 0, stepIndex),
  onMetricStart: () => Atomics.store(progress, 0, PHASE_METRIC),
};

port.on('message', (request: WorkerRequest) => {
  Atomics.store(progress, 0, PHASE_DEFINITION);
  try {
    if (request.type === 'describe') {
      send({ type: 'described', job: request.job, description: describeSource(request.source, request.fileName) });
    } else {
      const result = analyzeSourceCase(request.source, request.caseDef, request.settings, hooks, request.fileName);
      send({ type: 'result', job: request.job, result });
    }
  } catch (error) {
    send({
      type: 'failed',
      job: request.job,
      message: error instanceof Error ? error.message : String(error),
      definitionError: error instanceof DefinitionError,
    });
  } finally {
    Atomics.store(progress, 0, PHASE_IDLE);
  }
});

send({ type: 'ready' });

/**
 * Node worker thread for NodeAnalysisPool: compiles pipeline definitions in the SES sandbox and
 * analyses the cases of each request (a small batch) one after another, answering each as soon as
 * it is done. Before every case, step and metric call it records what runs in a
 * SharedArrayBuffer, so the pool's watchdog can name the case and step if it has to terminate us.
 */
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import { DefinitionError, type CaseDef, type ModelAnswer, type PendingRequest, type WaitingResolver } from '../src/engine/index.ts';
import { describeForAnalysis } from '../src/sandbox/analyze-source.ts';
import { DeferredWork } from '../src/pool/worker/deferred-work.ts';
import { runCaseRound } from '../src/pool/worker/case-round.ts';
import { analyzeGameInWorker } from '../src/pool/worker/game.ts';
import { ensureLockdown } from '../src/sandbox/lockdown.ts';
import { useNodeSha256 } from '../src/pool/node/native-sha256.ts';
import { splitCoalitions } from '../src/engine/packed-coalitions.ts';
import {
  PHASE_DEFERRED,
  PHASE_DEFINITION,
  PHASE_GAME,
  PHASE_IDLE,
  PHASE_INPUTS,
  PHASE_METRIC,
  PROGRESS_CASE,
  PROGRESS_JOB,
  PROGRESS_PHASE,
  type ModelWaitAnswer,
  type WaitChannel,
  type WorkerReply,
  type WorkerReplyGroup,
  type WorkerRequest,
} from '../src/pool/node/protocol.ts';

const port = parentPort;
if (port === null) throw new Error('workers/analysis.node.ts must run as a worker thread');
const data = workerData as { progress: SharedArrayBuffer; wait: WaitChannel };
const progress = new Int32Array(data.progress);
const waitSignal = new Int32Array(data.wait.signal);

ensureLockdown();
// Each new model request is keyed here (a long replay's requests add up to hundreds of MB).
useNodeSha256();

const send = (reply: WorkerReply): void => port.postMessage(reply);

/**
 * Case answers held back to go in one message (WorkerReplyGroup): never longer than this after the
 * first one held, and never past the end of the batch. A case that spins or kills the worker
 * loses the held answers with it; the pool then runs those cases again (the result is the same).
 */
const HOLD_MS = 4;
let held: WorkerReply[] = [];
let heldSince = 0;
function hold(reply: WorkerReply, lastOfBatch: boolean): void {
  if (held.length === 0) heldSince = performance.now();
  held.push(reply);
  if (lastOfBatch || performance.now() - heldSince >= HOLD_MS) flushHeld();
}
function flushHeld(): void {
  if (held.length === 1) send(held[0]);
  else if (held.length > 1) port!.postMessage({ type: 'replies', replies: held } satisfies WorkerReplyGroup);
  held = [];
}

/**
 * What a case leaves behind is charged to it (DeferredWork): a macrotask hop drains the microtask
 * queue, with the phase PHASE_DEFERRED, so a callback that spins times this case out.
 */
const deferredWork = new DeferredWork(() => new Promise<void>((resolve) => setImmediate(resolve)));
process.on('unhandledRejection', (reason) => deferredWork.rejected(reason));
function settleDeferredWork(): Promise<string | null> {
  Atomics.store(progress, PROGRESS_PHASE, PHASE_DEFERRED);
  return deferredWork.settle();
}

const hooks = {
  onStepStart: (stepIndex: number) => Atomics.store(progress, PROGRESS_PHASE, stepIndex),
  onMetricStart: () => Atomics.store(progress, PROGRESS_PHASE, PHASE_METRIC),
  onInputsStart: () => Atomics.store(progress, PROGRESS_PHASE, PHASE_INPUTS),
};

/**
 * A waiting round's resolver (protocol.ts, 'model-wait'): ask the pool for the response and block
 * until it comes. The thread's progress stays on the step, so a death while waiting names it; the
 * pool stops the case's clock meanwhile. An answer with an error (the host failed, too many
 * rounds) declines: the round then ends as a restarting one would, and `declined` holds the
 * case's error.
 */
function waitingResolver(job: number, index: number, declined: { error: string | null }): WaitingResolver {
  return (request: PendingRequest): ModelAnswer | null => {
    // Answers held back go first: the pool restarts the case's clock with every answer.
    flushHeld();
    port!.postMessage({ type: 'model-wait', job, index, request } satisfies WorkerReply);
    for (;;) {
      // Read the counter before the port: an answer queued after the read moves it, so the wait returns at once.
      const seen = Atomics.load(waitSignal, 0);
      const received = receiveMessageOnPort(data.wait.port);
      if (received !== undefined) {
        const answer = received.message as ModelWaitAnswer;
        if ('answer' in answer) return answer.answer;
        declined.error = answer.error;
        return null;
      }
      Atomics.wait(waitSignal, 0, seen);
    }
  };
}

function failure(job: number, index: number, error: unknown): WorkerReply {
  return {
    type: 'failed',
    job,
    index,
    message: error instanceof Error ? error.message : String(error),
    definitionError: error instanceof DefinitionError,
  };
}

/**
 * Requests are handled one after another: the pool may send the next batch while this one runs
 * (so no batch waits a round trip for work), and a case's deferred work awaits a macrotask, during
 * which the next request must not start.
 */
let handled: Promise<void> = Promise.resolve();
port.on('message', (request: WorkerRequest) => {
  // A failure here is reported as an unhandled rejection was before (charged to the case in progress), and the next request still runs.
  handled = handled
    .then(() => {
      Atomics.store(progress, PROGRESS_JOB, request.job);
      return handle(request);
    })
    .catch((reason: unknown) => deferredWork.rejected(reason));
});

/** The definition last sent (a run of the same one comes without it; see WorkerRequest). */
let lastSource: string | undefined;
/** The cases of the last run request: the next may name them by their place (HeldCase). */
let lastCases: CaseDef[] = [];

async function handle(request: WorkerRequest): Promise<void> {
  if (request.type === 'games') return handleGames(request);
  if (request.source !== undefined) lastSource = request.source;
  if (request.type === 'describe') {
    Atomics.store(progress, PROGRESS_PHASE, PHASE_DEFINITION);
    let reply: WorkerReply;
    try {
      const { summary, analysisSource } = describeForAnalysis(request.source, request.fileName);
      // Runs of this definition come without a source: the pool knows we keep the text it runs with.
      lastSource = analysisSource;
      reply = { type: 'described', job: request.job, description: summary, ...(analysisSource !== request.source && { analysisSource }) };
    } catch (error) {
      reply = failure(request.job, 0, error);
    }
    const deferred = await settleDeferredWork();
    send(deferred === null ? reply : failure(request.job, 0, new DefinitionError(`${request.fileName}: evaluating the definition: ${deferred}`)));
    Atomics.store(progress, PROGRESS_PHASE, PHASE_IDLE);
    return;
  }
  const source = lastSource;
  const cases = request.cases.map((c) => {
    if (!('held' in c)) return c;
    const held = lastCases[c.held];
    if (held === undefined) throw new Error(`internal: a run names case ${c.held} of the last, which had ${lastCases.length}`);
    return held;
  });
  lastCases = cases;
  for (let index = 0; index < cases.length; index++) {
    Atomics.store(progress, PROGRESS_CASE, index);
    Atomics.store(progress, PROGRESS_PHASE, PHASE_DEFINITION);
    let reply: WorkerReply;
    const declined: { error: string | null } = { error: null };
    try {
      if (source === undefined) throw new Error('internal: a run without a definition reached a new worker');
      const resolveWaiting = request.waiting?.[index] === true ? waitingResolver(request.job, index, declined) : undefined;
      const round = runCaseRound(source, request.fileName, cases[index], request.settings, request.answers?.[index], hooks, resolveWaiting);
      // The pool could not get a response it waited for: the case's error, as a round's failed fetch gives it.
      if (declined.error !== null) reply = { type: 'failed', job: request.job, index, message: declined.error, definitionError: false };
      else if (round.kind === 'pending') reply = { type: 'pending', job: request.job, index, requests: round.requests };
      else {
        const { result, coalitions } = splitCoalitions(round.result);
        reply = { type: 'result', job: request.job, index, result, ...(coalitions !== null && { coalitions }) };
      }
    } catch (error) {
      reply = failure(request.job, index, error);
    }
    const deferred = await settleDeferredWork();
    if (deferred !== null) {
      // The pool prefixes the case's id.
      reply = { type: 'failed', job: request.job, index, message: deferred, definitionError: false };
    }
    hold(reply, index === cases.length - 1);
  }
  Atomics.store(progress, PROGRESS_PHASE, PHASE_IDLE);
}

/** Table games, one after another, answered like a run's cases (no definition, so nothing deferred). */
function handleGames(request: Extract<WorkerRequest, { type: 'games' }>): void {
  for (let index = 0; index < request.games.length; index++) {
    Atomics.store(progress, PROGRESS_CASE, index);
    Atomics.store(progress, PROGRESS_PHASE, PHASE_GAME);
    const { result, coalitions } = splitCoalitions(analyzeGameInWorker(request.games[index], request.settings));
    hold({ type: 'result', job: request.job, index, result, ...(coalitions !== null && { coalitions }) }, index === request.games.length - 1);
  }
  Atomics.store(progress, PROGRESS_PHASE, PHASE_IDLE);
}

send({ type: 'ready' });

/**
 * One analysis worker of the page's pool. Thin by design: it compiles a pipeline definition in the
 * SES sandbox once, then analyses the cases the page hands it in small batches (one call per batch,
 * the outcomes posted as cases finish, so the page can time every case and replace this
 * worker if a definition never returns), and table games one call each.
 */
import * as Comlink from 'comlink';
import { ensureLockdown } from '../../sandbox/lockdown.ts';
import { PHASE_DEFERRED, PHASE_DEFINITION, PHASE_IDLE, PHASE_INPUTS, PHASE_METRIC } from '../../pool/contract.ts';
import { compileChecked, describeForAnalysis } from '../../sandbox/analyze-source.ts';
import { summarizeDefinition } from '../../engine/definition-summary.ts';
import type { ModelAnswer } from '../../engine/model-call.ts';
import type { AnalysisSettings, CaseDef, CaseResult } from '../../engine/types.ts';
import type { TableGame } from '../../engine/table-game.ts';
import { errorResult } from '../../engine/case-result.ts';
import { splitCoalitions } from '../../engine/packed-coalitions.ts';
import {
  CASE_DONE_HOLD_MS,
  isConnectMessage,
  type AnalysisWorkerApi,
  type CallOutcome,
  type CaseDoneGroup,
  type CaseDoneMessage,
  type LoadOutcome,
  type RegressionGameOutcome,
  type VersionFile,
  type WatchdogMessage,
} from '../../pool/page/protocol.ts';
import { buildRegressionGame, RegressionPlanError } from '../../regression/regression-game.ts';
import { DefinitionError } from '../../sandbox/definition-error.ts';
import { DeferredWork } from '../../pool/worker/deferred-work.ts';
import { runCaseRound } from '../../pool/worker/case-round.ts';
import { analyzeGameInWorker } from '../../pool/worker/game.ts';
import { startWarmUp } from '../../pool/worker/warm-up.ts';
import { describeProblem } from './definition-summary.ts';
import { withModelUse } from './uses-model.ts';
import { waitingResolver } from '../../pool/page/wait-channel.ts';

ensureLockdown();

/** The compiled definition, with its step names for the result of a case that cannot run. */
let loaded: { source: string; fileName: string; players: string[] } | null = null;

/** The port the page talks to this worker on (ConnectMessage); null until it arrives. */
let page: MessagePort | null = null;
/** Shared memory to wait on for model responses (wait-channel.ts); null where the worker is not cross-origin isolated. */
let waitBuffer: SharedArrayBuffer | null = null;

/** The step (or PHASE_* marker) last reported to the page in this case. */
let reportedStep = PHASE_IDLE;
function report(step: number): void {
  if (step === reportedStep) return;
  reportedStep = step;
  const message: WatchdogMessage = { agentblameWatchdog: step };
  page?.postMessage(message);
}
const watchdogHooks = { onStepStart: report, onMetricStart: () => report(PHASE_METRIC), onInputsStart: () => report(PHASE_INPUTS) };

/**
 * One task hop. `scheduler.postTask` stays on this thread; a MessageChannel message goes through
 * the browser's IPC thread and back, and under load the worker sleeps until it is woken (about 2 ms
 * a case with other processes on the cores, as much as the analysis of a small case; bench/README.md,
 * "Page speed"). Background priority: anything else queued (the rejection report) runs first.
 */
interface TaskScheduler {
  postTask(callback: () => void, options: { priority: 'background' }): Promise<void>;
}
const taskScheduler = (globalThis as { scheduler?: Partial<TaskScheduler> }).scheduler;
const hop: () => Promise<void> =
  typeof taskScheduler?.postTask === 'function'
    ? () => (taskScheduler as TaskScheduler).postTask(() => {}, { priority: 'background' })
    : () =>
        new Promise((resolve) => {
          const channel = new MessageChannel();
          channel.port1.onmessage = () => {
            channel.port1.close();
            resolve();
          };
          channel.port2.postMessage(null);
        });
/** Two task hops, because the browser reports unhandled rejections in a task of their own. */
const deferredWork = new DeferredWork(async () => {
  await hop();
  await hop();
});
self.addEventListener('unhandledrejection', (event) => {
  event.preventDefault();
  deferredWork.rejected(event.reason);
});
const settleDeferredWork = () => deferredWork.settle();

/** The engine's warm-up, once the page asks for it (pool/worker/warm-up.ts); every other call stops it first. */
let warmUp: { stop(): void } | null = null;
let warmUpAsked = false;
function stopWarmUp(): void {
  warmUp?.stop();
  warmUp = null;
}

const api = {
  /**
   * Compiles `source` in the sandbox and keeps it for the following `analyzeCase` calls. With
   * `describe`, answers its summary with its own cases (and the text other workers should load,
   * without an inline case list); without, the pool described it already and the definition's
   * cases are never read here.
   */
  async load(source: string, fileName: string, describe = true): Promise<LoadOutcome> {
    stopWarmUp();
    let outcome: LoadOutcome;
    try {
      const described = describe
        ? describeForAnalysis(source, fileName)
        : { summary: summarizeDefinition(compileChecked(source, fileName, { cases: 'skip' })), analysisSource: source };
      const { analysisSource } = described;
      const summary = withModelUse(described.summary, analysisSource);
      loaded = { source: analysisSource, fileName, players: summary.steps.map((step) => step.name) };
      outcome = { ok: true, summary, ...(analysisSource !== source && { analysisSource }) };
    } catch (error) {
      loaded = null;
      outcome = { ok: false, problem: describeProblem(error, fileName) };
    }
    const deferred = await settleDeferredWork();
    if (deferred === null) return outcome;
    loaded = null;
    return { ok: false, problem: { message: `${fileName}: evaluating the definition: ${deferred}` } };
  },

  /**
   * Analyses one case. With `watch`, every change of step is posted to the page, so a case that
   * never returns can be blamed on its step; that costs a message per step execution (several times
   * the analysis itself), so the page asks for it only when re-running a case that timed out.
   * `answers` are the model responses known so far (model steps); a case that needs more returns
   * the requests it waits for, and the page calls again once it has them. With `waiting` (a chain,
   * and a wait buffer from its frame), it asks the page for each response it lacks and sleeps until
   * the frame writes it in (wait-channel.ts): the case goes on in the same call.
   */
  async analyzeCase(caseDef: CaseDef, settings: AnalysisSettings, watch = false, answers?: Record<string, ModelAnswer>, waiting = false): Promise<CallOutcome> {
    stopWarmUp();
    if (loaded === null) return errorResult(caseDef.id, [], settings, 'No pipeline definition is loaded.');
    const { players } = loaded;
    reportedStep = PHASE_IDLE;
    // From its start, so the page can tell a case that never started (its inputs still on the way).
    if (watch) report(PHASE_DEFINITION);
    let outcome: CallOutcome;
    try {
      // Every load described the definition here or in another worker of the pool first.
      // A waiting round: each response it lacks is asked for and waited on here (the page keeps a
      // failure it answered instead as the case's error, so `declined` needs no reply of its own).
      const resolveWaiting = waiting && waitBuffer !== null && page !== null ? waitingResolver(waitBuffer, (message) => page!.postMessage(message), { error: null }) : undefined;
      const round = runCaseRound(loaded.source, loaded.fileName, caseDef, settings, answers, watch ? watchdogHooks : undefined, resolveWaiting);
      outcome = round.kind === 'pending' ? { pending: round.requests } : round.result;
    } catch (error) {
      outcome = errorResult(caseDef.id, players, settings, error instanceof Error ? error.message : String(error));
    }
    if (watch) report(PHASE_DEFERRED);
    const deferred = await settleDeferredWork();
    return deferred === null ? outcome : errorResult(caseDef.id, players, settings, `case "${caseDef.id}": ${deferred}`);
  },

  /**
   * Analyses a batch of cases one after another, posting the outcomes (CaseDoneMessage, in groups)
   * as they finish, their coalition tables packed (the page unpacks them); answers how many.
   */
  async analyzeCases(caseDefs: CaseDef[], settings: AnalysisSettings): Promise<number> {
    stopWarmUp();
    // Outcomes go in groups (CaseDoneGroup): held back at most CASE_DONE_HOLD_MS, and all sent
    // before the call answers (same port, so the page has them before the count).
    let held: CaseDoneMessage[] = [];
    let heldSince = 0;
    const send = () => {
      if (held.length === 0) return;
      const group: CaseDoneGroup = { agentblameCasesDone: held };
      page?.postMessage(group);
      held = [];
    };
    for (let position = 0; position < caseDefs.length; position++) {
      const outcome = await api.analyzeCase(caseDefs[position], settings);
      const packed = 'pending' in outcome ? { result: outcome, coalitions: null } : splitCoalitions(outcome);
      if (held.length === 0) heldSince = performance.now();
      held.push({ agentblameCaseDone: position, outcome: packed.result, ...(packed.coalitions && { coalitions: packed.coalitions }) });
      if (performance.now() - heldSince >= CASE_DONE_HOLD_MS) send();
    }
    send();
    return caseDefs.length;
  },

  analyzeGame(game: TableGame, settings: AnalysisSettings): CaseResult {
    stopWarmUp();
    return analyzeGameInWorker(game, settings);
  },

  /**
   * Builds the regression game here, in the sandbox: reading both versions runs their top level.
   * Leaves the loaded definition alone (the pool loads the game like any definition afterwards).
   * Refusals read as the command's (src/cli/regression-command.ts).
   */
  async regressionGame(after: VersionFile, before: VersionFile): Promise<RegressionGameOutcome> {
    stopWarmUp();
    let outcome: RegressionGameOutcome;
    try {
      const game = buildRegressionGame(after, before);
      outcome = { ok: true, source: game.source, reverseSource: game.reverseSource, steps: game.plan.steps.map((s) => ({ name: s.name, change: s.change })), notes: game.plan.notes };
    } catch (error) {
      if (error instanceof DefinitionError) outcome = { ok: false, message: `pipeline definition: ${error.message}` };
      else if (error instanceof RegressionPlanError) outcome = { ok: false, message: error.message };
      else outcome = { ok: false, message: `${before.fileName}: ${error instanceof Error ? error.message : String(error)}` };
    }
    const deferred = await settleDeferredWork();
    return deferred === null ? outcome : { ok: false, message: `${before.fileName}: evaluating the definition: ${deferred}` };
  },

  warmUp(): void {
    if (warmUpAsked) return;
    warmUpAsked = true;
    // Background tasks: a call from the page that arrives meanwhile runs before the next warm-up case.
    warmUp = startWarmUp(hop);
  },
} satisfies AnalysisWorkerApi;

self.addEventListener('message', function connect(event: MessageEvent) {
  if (!isConnectMessage(event.data)) return;
  self.removeEventListener('message', connect);
  page = event.data.agentblameConnect;
  waitBuffer = event.data.agentblameWaitBuffer ?? null;
  Comlink.expose(api, page);
});

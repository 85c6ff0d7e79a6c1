/**
 * One analysis worker of the page's pool. Thin by design: it compiles a pipeline definition in the
 * SES sandbox once, then analyses the cases (or table games) the page hands it, one call each, so
 * the page can time every case and replace this worker if a definition never returns.
 */
import * as Comlink from 'comlink';
import { ensureLockdown } from '../src/sandbox/lockdown.ts';
import { analyzeSourceCaseRound, describeSource } from '../src/sandbox/analyze-source.ts';
import type { ModelAnswer, PendingRequest } from '../src/engine/model-call.ts';
import { analyzeTableGame } from '../src/engine/index.ts';
import type { AnalysisSettings, CaseDef, CaseResult } from '../src/engine/types.ts';
import type { TableGame } from '../src/formats/game.ts';
import { errorResult } from '../src/sandbox/error-result.ts';
import type { LoadOutcome, WatchdogMessage } from '../src/app/analysis/protocol.ts';
import { describeProblem, toSummary } from '../src/app/analysis/definition-summary.ts';

ensureLockdown();

/** The compiled definition, with its step names for the result of a case that cannot run. */
let loaded: { source: string; fileName: string; players: string[] } | null = null;

/** The step last reported to the page in this case (-1 = the metric, -2 = nothing yet). */
let reportedStep = -2;
function report(step: number): void {
  if (step === reportedStep) return;
  reportedStep = step;
  const message: WatchdogMessage = { agentblameWatchdog: step };
  self.postMessage(message);
}
const watchdogHooks = { onStepStart: report, onMetricStart: () => report(-1) };

const api = {
  /** Compiles `source` in the sandbox and keeps it for the following `analyzeCase` calls. */
  load(source: string, fileName: string): LoadOutcome {
    try {
      const summary = toSummary(describeSource(source, fileName));
      loaded = { source, fileName, players: summary.steps.map((step) => step.name) };
      return { ok: true, summary };
    } catch (error) {
      loaded = null;
      return { ok: false, problem: describeProblem(error, fileName) };
    }
  },

  /**
   * Analyses one case. With `watch`, every change of step is posted to the page, so a case that
   * never returns can be blamed on its step; that costs a message per step execution (several times
   * the analysis itself), so the page asks for it only when re-running a case that timed out.
   * `answers` are the model responses known so far (model steps); a case that needs more returns
   * the requests it waits for, and the page calls again once it has them.
   */
  analyzeCase(caseDef: CaseDef, settings: AnalysisSettings, watch = false, answers?: Record<string, ModelAnswer>): CaseResult | { pending: PendingRequest[] } {
    if (loaded === null) return errorResult(caseDef.id, [], settings, 'No pipeline definition is loaded.');
    reportedStep = -2;
    try {
      const known = new Map<string, ModelAnswer>(answers ? Object.entries(answers) : []);
      const round = analyzeSourceCaseRound(loaded.source, caseDef, settings, known, watch ? watchdogHooks : undefined, loaded.fileName);
      return round.kind === 'pending' ? { pending: round.requests } : round.result;
    } catch (error) {
      return errorResult(caseDef.id, loaded.players, settings, error instanceof Error ? error.message : String(error));
    }
  },

  analyzeGame(game: TableGame, settings: AnalysisSettings): CaseResult {
    try {
      return analyzeTableGame(game, settings);
    } catch (error) {
      return errorResult(game.id, game.players, settings, error instanceof Error ? error.message : String(error));
    }
  },
};

export type AnalysisWorkerApi = typeof api;

Comlink.expose(api);

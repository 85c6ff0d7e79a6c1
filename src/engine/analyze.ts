import type { AnalysisSettings, CaseDef, CaseResult, Game, PairInteraction, PipelineDef, ShapleyEstimate } from './types.ts';
import { BlameGame, fixIndices } from './blame-game.ts';
import type { Coalition } from './coalition.ts';
import { lastTouch } from './baselines.ts';
import { attributedResult, errorResult, passedResult } from './case-result.ts';
import { canonicalize } from './canonical.ts';
import { ReplayError, StepSuspended } from './errors.ts';
import type { ReplayHooks } from './replay.ts';
import { errorText } from './replay.ts';
import { seededRng } from './rng.ts';
import { resolveMethod } from './settings.ts';
import { exactShapley } from './shapley/exact.ts';
import { runEstimator } from './shapley/registry.ts';
import { boundedInteractions, EXACT_INTERACTION_MAX_PLAYERS, pairInteractions } from './shapley/interactions.ts';
import { hashWithSeed } from './hash.ts';
import type { ValidPipeline } from './pipeline.ts';
import { factualRun } from './factual-run.ts';
import { ownValue } from './named-record.ts';
import { refuseNonFinite } from './finite-results.ts';

export { COALITION_TABLE_MAX_PLAYERS } from './case-result.ts';

/** The estimator's own random stream: a function of the run's seed and the case id, so results do not depend on case order or worker count. */
function caseRng(seed: number, caseId: string) {
  return seededRng(hashWithSeed(`mc\u0000${caseId}`, seed));
}

/** Run exact or Monte Carlo Shapley on a game and the baselines beside it. */
export function attribute(game: Game, caseId: string, settings: AnalysisSettings): { method: 'exact' | 'mc'; estimate: ShapleyEstimate } {
  const method = resolveMethod(settings.method, game.players.length, settings.maxPermutations);
  const estimate =
    method === 'exact'
      ? exactShapley(game)
      : runEstimator(settings.estimator, game, caseRng(settings.seed, caseId), {
          delta: settings.delta,
          stop: settings.stop,
          width: settings.width,
          budget: settings.budget,
          maxPermutations: settings.maxPermutations,
          radius: settings.radius,
          ...(settings.tieTolerance !== undefined && { tieTolerance: settings.tieTolerance }),
        });
  return { method, estimate };
}

/** Pairwise interactions when the settings ask for them, on their own random stream (so they never move the Shapley estimate). */
export function interactionsFor(game: Game, caseId: string, settings: AnalysisSettings): PairInteraction[] | undefined {
  if (!settings.interactions) return undefined;
  return pairInteractions(game, seededRng(hashWithSeed(`interactions\u0000${caseId}`, settings.seed)), settings.delta);
}

/**
 * The interactions under a budget: asked for only while the budget lasts, coalition by coalition
 * (known ones are free). When it runs out before they are all known: up to 12 steps, each pair's
 * sure bounds from the coalitions known then (boundedInteractions); above, null (sampled pairs
 * from whatever orders happened to be known would not be a uniform sample).
 */
function interactionsWithin(game: BlameGame, caseId: string, settings: AnalysisSettings, budget: number): PairInteraction[] | undefined | null {
  if (!settings.interactions) return undefined;
  const within: Game = {
    players: game.players,
    range: game.range,
    cost: () => game.cost(),
    value: (mask) => {
      if (game.cost() >= budget && !game.isKnown(mask)) throw OVER_BUDGET;
      return game.value(mask);
    },
  };
  try {
    return interactionsFor(within, caseId, settings) ?? undefined;
  } catch (e) {
    if (e !== OVER_BUDGET) throw e;
    if (game.players.length > EXACT_INTERACTION_MAX_PLAYERS) return null;
    return boundedInteractions(game.players, game.range, (mask) => (game.isKnown(mask) ? game.value(mask) : undefined));
  }
}

/** Thrown by interactionsWithin's game once the budget is spent (caught there). */
const OVER_BUDGET = Symbol('over budget');

/**
 * Analyse one case: replay it under coalitions of fixes, compute Shapley blame and the
 * baselines. Failures of the definition's code come back as `error` (naming case and step);
 * this function does not throw for them.
 */
export function analyzeCase(def: ValidPipeline, c: CaseDef, settings: AnalysisSettings, hooks: ReplayHooks = {}): CaseResult {
  // `def` passed validatePipeline when it was compiled: a malformed definition (duplicate names,
  // forward references, a step without fixes) would replay into silently wrong values.
  const players = def.steps.map((s) => s.name);
  const method = resolveMethod(settings.method, players.length, settings.maxPermutations);
  const threshold = def.threshold ?? 1;
  try {
    // The factual run the record is checked against and failure is judged by: the case's own world
    // (recorded), the first abducted world, which reproduces the observed choices (posterior), or,
    // since fresh worlds say nothing about this run, the case's own world replayed apart (prior).
    const recorded = settings.mode === 'prior' ? new BlameGame(def, c, { mode: 'recorded', worlds: 1, fixChoice: settings.fixChoice }, hooks) : null;
    // A Monte Carlo budget bounds the whole analysis (docs/method.md, "Budget"): every coalition
    // after v(no fix) and v(all fixes) is asked for only while the cost is below it.
    const budget = method === 'mc' && Number.isFinite(settings.budget) ? settings.budget : undefined;
    const game = new BlameGame(def, c, settings, hooks, budget !== undefined);
    const factual = recorded ?? game;
    const factualScore = factual.factualRun.score;
    // Without a seed the prior mode's "own world" is arbitrary: comparing outputs there would only report noise.
    const mismatches = settings.mode === 'prior' && c.seed === undefined ? [] : compareWithRecord(c, factual);
    mismatches.push(...checkObserved(def, c, settings.mode, game, hooks));
    const failed = (c.score ?? factualScore) < threshold;
    const extras = { factualOutputs: factual.factualRun.outputs, mismatches };
    const cost = () => game.cost() + (recorded?.cost() ?? 0);
    if (!failed) return refuseNonFinite(passedResult(c.id, game, method, () => ({ cost: cost(), evaluations: game.evaluations }), extras));
    // v(all) before the sampling: the result needs it whatever the budget (efficiency, last touch, fixable).
    if (budget !== undefined) game.value(game.fullMask);
    const { estimate } = attribute(game, c.id, settings);
    const interactions = budget === undefined ? interactionsFor(game, c.id, settings) : interactionsWithin(game, c.id, settings, budget);
    // A round of a model-step analysis that still waits for responses has only stand-in values.
    if (hooks.model && hooks.model.pending.size > 0) throw new StepSuspended(players[0]);
    const result = attributedResult(
      game,
      {
        caseId: c.id,
        method,
        estimator: settings.estimator,
        estimate,
        ...(interactions !== null && { interactions }),
        ...(interactions === null && { skipped: ['interactions' as const] }),
        ...(budget !== undefined && { budget }),
        threshold,
        ...(settings.repairs && {
          repairs: {
            success: settings.repairs.success ?? def.range?.[1] ?? 1,
            size: method === 'exact' ? players.length : settings.repairs.size,
            costs: fixIndices(def, settings.fixChoice).map((k, i) => def.steps[i].fixes[k].cost),
            outputsOf: (mask: Coalition) => game.replayer.runWorld(0, mask).outputs,
          },
        }),
        outputsOf: (mask: Coalition) => game.replayer.runWorld(0, mask).outputs,
        measured: () => {
          const fixedRun = game.fullRun!;
          return {
            evaluated: game.evaluated(),
            cost: cost(),
            evaluations: game.evaluations,
            lastTouch: lastTouch(players, game.factualRun.outputIds, fixedRun.outputIds),
            fixedOutputs: fixedRun.outputs,
          };
        },
      },
      extras,
    );
    // The repair search may reach coalitions whose model responses are not known yet.
    if (hooks.model && hooks.model.pending.size > 0) throw new StepSuspended(players[0]);
    return refuseNonFinite(result);
  } catch (e) {
    // The definition's own failures arrive as ReplayError, settings out of range as RangeError;
    // anything else is a bug here and must not pass as a per-case error.
    if (!(e instanceof ReplayError) && !(e instanceof RangeError)) throw e;
    return errorResult(c.id, players, settings, errorText(e));
  }
}

/** Differences between the trace's recorded factual run and the replay (reported, not fatal). */
function compareWithRecord(c: CaseDef, factual: BlameGame): string[] {
  const out: string[] = [];
  const run = factual.factualRun;
  if (c.score !== undefined && c.score !== run.score) out.push(`score: recorded ${c.score}, replay ${run.score}`);
  if (c.outputs) {
    for (const [step, recorded] of Object.entries(c.outputs)) {
      // Own entries only: a recorded output named `constructor` is not Object.prototype's.
      if (!Object.hasOwn(run.outputs, step)) {
        out.push(`outputs.${step}: recorded, but the pipeline has no such step`);
        continue;
      }
      const replayed = ownValue(run.outputs, step);
      if (canonicalize(recorded) !== canonicalize(replayed)) out.push(`outputs.${step}: recorded ${preview(recorded)}, replay ${preview(replayed)}`);
    }
  }
  return out;
}

/**
 * Observed choices the replay does not account for: in recorded mode, a (step, key) the factual
 * replay never draws or draws differently; in posterior mode, one never drawn and so never
 * abducted from (a misspelt step or key would otherwise fall back to fresh noise silently).
 */
function checkObserved(def: PipelineDef, c: CaseDef, mode: AnalysisSettings['mode'], game: BlameGame, hooks: ReplayHooks): string[] {
  const observed = c.observed;
  if (!observed || mode === 'prior') return [];
  const out: string[] = [];
  const replayed = mode === 'recorded' ? factualRun(def, c, hooks).observed : null;
  const abducted = game.replayer.worlds[0].abducted;
  for (const step of Object.keys(observed)) {
    for (const key of Object.keys(observed[step])) {
      const recordedChoice = observed[step][key];
      const where = `observed.${step}.${key}`;
      if (replayed) {
        const choice = Object.hasOwn(replayed, step) && Object.hasOwn(replayed[step], key) ? replayed[step][key] : undefined;
        if (choice === undefined) out.push(`${where}: recorded "${recordedChoice}", but the replay never draws it (check the step name and draw key)`);
        else if (choice !== recordedChoice) out.push(`${where}: recorded "${recordedChoice}", replay chose "${choice}"`);
      } else if (!abducted.get(step)?.has(key)) {
        out.push(`${where}: recorded "${recordedChoice}", but the replay never draws it, so nothing was abducted from it (check the step name and draw key)`);
      }
    }
  }
  return out;
}

function preview(v: unknown): string {
  const text = canonicalize(v);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

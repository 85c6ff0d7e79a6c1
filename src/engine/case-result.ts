/**
 * The one place that builds and classifies case results (docs/architecture.md, "Results"):
 * pipelines, game tables and the hosts that lose a case (timeouts, crashed workers) all go
 * through here, so every result of one kind has the same fields.
 */
import type { AnalysisSettings, AttributedCaseResult, BudgetSkippedPart, CaseResult, ErrorCaseResult, Game, Method, PairInteraction, PassedCaseResult, ShapleyEstimate } from './types.ts';
import { complementOf, type Coalition, emptyCoalition, fullCoalition, singletonCoalition, withPlayer } from './coalition.ts';
import { attachPackedTable, type PackedCoalitions } from './packed-coalitions.ts';
import { resolveMethod } from './settings.ts';
import { namedRecord } from './named-record.ts';
import { numberSlots } from './slots.ts';
import { boundText } from './bound-text.ts';
import { MAX_ALONE_OUTPUT_PLAYERS, MAX_MESSAGE_LENGTH } from './limits.ts';
import { minimalRepairs } from './repairs/minimal-repairs.ts';

/** Coalition tables are listed in results up to this many players. */
export const COALITION_TABLE_MAX_PLAYERS = 10;

/** A case that could not be analysed (no values were measured, so they are NaN). */
export function errorResult(caseId: string, players: readonly string[], settings: Pick<AnalysisSettings, 'method'> & Partial<Pick<AnalysisSettings, 'maxPermutations'>>, error: string): ErrorCaseResult {
  return {
    id: caseId,
    players: [...players],
    method: resolveMethod(settings.method, players.length, settings.maxPermutations),
    failed: true,
    vEmpty: NaN,
    vAll: NaN,
    cost: 0,
    evaluations: 0,
    permutations: 0,
    // Messages carry text from user code: bounded, so one huge message cannot break a run's output.
    error: boundText(error, 2 * MAX_MESSAGE_LENGTH),
  };
}

/** Whether a case could not be analysed. */
export function isErrorResult(result: CaseResult): result is ErrorCaseResult {
  return result.error !== undefined;
}

/** Whether a result is an analysed failure: a failing case analysed without error, so it has blame. */
export function isAnalysedFailure(result: CaseResult): result is AttributedCaseResult {
  return result.error === undefined && result.failed;
}

/**
 * Whether fixing `step` alone brings an analysed failure to the threshold. Results saved before
 * `resolvedAlone` was recorded are judged from v(empty) plus the step's fix-alone gain.
 */
export function resolvesAlone(result: AttributedCaseResult, step: string, threshold: number): boolean {
  if (result.resolvedAlone !== undefined) return result.resolvedAlone.includes(step);
  if (result.fixAlone === undefined) return false;
  const gain = Object.hasOwn(result.fixAlone, step) ? result.fixAlone[step] : 0;
  return result.vEmpty + gain >= threshold;
}

/** Whether a result knows which steps resolve it alone: not when a budget stopped the fix-alone baseline. */
export function knowsFixAlone(result: AttributedCaseResult): boolean {
  return result.fixAlone !== undefined || result.resolvedAlone !== undefined;
}

/** The analysed failures of a list of results, in order. */
export function analysedFailures(results: readonly CaseResult[]): AttributedCaseResult[] {
  return results.filter(isAnalysedFailure);
}

/** Values by player name; a null-prototype record, so a step named `__proto__` is an entry like any other. */
function byName<T>(players: readonly string[], xs: readonly T[]): Record<string, T> {
  return namedRecord(players, xs);
}

/**
 * The evaluated coalitions as a packed table (masks fit 32 bits: tables are listed for at most
 * COALITION_TABLE_MAX_PLAYERS players). Building 2^n small objects per case was most of the
 * result's cost for an exact 8-step case, and most results are stored or sent on without anyone
 * reading the table (bench/README.md, "Fifth round").
 */
function packedEvaluated(entries: readonly (readonly [Coalition, number])[]): PackedCoalitions {
  // Written into slots, then copied by the typed arrays' constructors: under SES lockdown a store
  // by index into a typed array is about 4 times the cost of both together (slots.ts).
  const masks = numberSlots(entries.length);
  const values = numberSlots(entries.length);
  for (let k = 0; k < entries.length; k++) {
    masks[k] = Number(entries[k][0]);
    values[k] = entries[k][1];
  }
  return { masks: new Uint32Array(masks as ArrayLike<number>), values: new Float64Array(values as ArrayLike<number>) };
}

/** Fields a case result may carry whatever its kind, set by the caller. */
export interface ResultExtras {
  factualOutputs?: Record<string, unknown>;
  mismatches?: string[];
}

/** A case that meets the threshold as run. */
export function passedResult(caseId: string, game: Game, method: Method, counts: () => { cost: number; evaluations: number }, extras: ResultExtras = {}): PassedCaseResult {
  const vEmpty = game.value(emptyCoalition(game.players.length));
  const vAll = game.value(fullCoalition(game.players.length));
  const { cost, evaluations } = counts();
  return {
    id: caseId,
    players: [...game.players],
    method,
    failed: false,
    vEmpty,
    ...(extras.factualOutputs !== undefined && { factualOutputs: extras.factualOutputs }),
    ...(extras.mismatches?.length ? { mismatches: extras.mismatches } : {}),
    vAll,
    cost,
    evaluations,
    queries: 0,
    permutations: 0,
  };
}

/** What the game spent and saw, read after the baselines have made their lookups. */
export interface Measured {
  /** Coalitions evaluated, as [mask, v] in increasing mask order. */
  evaluated: readonly (readonly [Coalition, number])[];
  cost: number;
  evaluations: number;
  /** Last step whose output the fixes change (pipelines), null when there are no outputs (game tables). */
  lastTouch: string | null;
  fixedOutputs?: Record<string, unknown>;
}

/** What an attributed result needs beyond the game. */
export interface AttributionInputs {
  caseId: string;
  method: Method;
  estimator: AnalysisSettings['estimator'];
  estimate: ShapleyEstimate;
  /** A case fails below this; a coalition reaching it repairs the case. */
  threshold: number;
  /** Called once the baselines are computed, so counts and coalition lists include their lookups. */
  measured: () => Measured;
  /** Pairwise interactions, when the settings asked for them. */
  interactions?: PairInteraction[];
  /** The minimal-repair search, when the settings ask for it (runs before `measured`, so counts include it). */
  repairs?: RepairRequest;
  /**
   * A Monte Carlo budget (finite): the baselines and the repair search then ask for a coalition
   * not evaluated yet only while the game's cost is below it (docs/method.md, "Budget"); a
   * baseline whose coalitions it stops is left out and listed in `notComputed`.
   */
  budget?: number;
  /**
   * Outputs per step (first world) with a coalition fixed (pipelines): with it, a result keeps each
   * step's fix alone (`aloneOutputs`) when the fix-alone baseline was computed.
   */
  outputsOf?: (mask: Coalition) => Record<string, unknown>;
  /** Parts the analysis already left out for the budget (the interactions), listed first. */
  skipped?: readonly BudgetSkippedPart[];
}

/** What a minimal-repair search of one case needs besides the game. */
export interface RepairRequest {
  success: number;
  /** Largest set searched; exact analyses pass the player count. */
  size: number;
  /** Each step's fix cost, in player order (sets are then ordered by cost within a size). */
  costs?: readonly number[];
  /** Outputs per step with a coalition fixed (pipelines), for the first repair's training pairs. */
  outputsOf?: (mask: Coalition) => Record<string, unknown>;
}

/** The repairs part of a result: the list, how it was searched, and the first repair's outputs. */
function repairFields(game: Game, req: RepairRequest, mayAsk: (mask: Coalition) => boolean): Pick<AttributedCaseResult, 'repairs' | 'repairSearch' | 'repairedOutputs'> {
  const search = minimalRepairs(game, req.success, req.size, req.costs, mayAsk);
  const n = game.players.length;
  const repairs = search.repairs.map((r) => ({ fixed: r.players.map((i) => game.players[i]), value: r.value, cost: r.cost }));
  const first = search.repairs[0];
  let mask = emptyCoalition(n);
  for (const i of first?.players ?? []) mask = withPlayer(mask, i);
  return {
    repairs,
    repairSearch: { success: req.success, maxSize: search.maxSize, complete: search.complete },
    ...(first && first.players.length > 0 && req.outputsOf && { repairedOutputs: req.outputsOf(mask) }),
  };
}

/** A game that may say which coalitions it knows already (BlameGame: those it has evaluated). */
export type BudgetedGame = Game & { isKnown?(mask: Coalition): boolean };

/** v of each coalition in order, or null once `mayAsk` refuses one (the rest are not asked for). */
function valuesWithin(game: Game, masks: readonly Coalition[], mayAsk: (mask: Coalition) => boolean): number[] | null {
  const values: number[] = [];
  for (const mask of masks) {
    if (!mayAsk(mask)) return null;
    values.push(game.value(mask));
  }
  return values;
}

/**
 * A failing case with its blame: Shapley values, the fix-alone and leave-one-out baselines, the
 * steps whose fix alone reaches the threshold, and whether any evaluated coalition does (all
 * coalitions when exact, those seen otherwise).
 */
export function attributedResult(game: BudgetedGame, a: AttributionInputs, extras: ResultExtras = {}): AttributedCaseResult {
  const players = [...game.players];
  const n = players.length;
  const vEmpty = game.value(emptyCoalition(n));
  const vAll = game.value(fullCoalition(n));
  const mayAsk = (mask: Coalition) => a.budget === undefined || game.cost() < a.budget || game.isKnown?.(mask) === true;
  // Fix-alone first (its coalitions also say which steps resolve the case alone), then leave-one-out.
  const singles = valuesWithin(game, players.map((_, i) => singletonCoalition(n, i)), mayAsk);
  const complements = valuesWithin(game, players.map((_, i) => complementOf(singletonCoalition(n, i), n)), mayAsk);
  const skipped: BudgetSkippedPart[] = [...(a.skipped ?? []), ...(singles ? [] : ['fixAlone' as const]), ...(complements ? [] : ['leaveOneOut' as const])];
  const repaired = a.repairs ? repairFields(game, a.repairs, mayAsk) : undefined;
  // Its coalitions are evaluated already (the singles), so their world-0 runs come from the step cache.
  const alone = singles && a.outputsOf && n <= MAX_ALONE_OUTPUT_PLAYERS ? byName(players, players.map((_, i) => a.outputsOf!(singletonCoalition(n, i)))) : undefined;
  const m = a.measured();
  const { estimate } = a;
  const listed = players.length <= COALITION_TABLE_MAX_PLAYERS;
  const result: AttributedCaseResult = {
    id: a.caseId,
    players,
    method: a.method,
    failed: true,
    vEmpty,
    ...(extras.factualOutputs !== undefined && { factualOutputs: extras.factualOutputs }),
    ...(extras.mismatches?.length ? { mismatches: extras.mismatches } : {}),
    vAll,
    shapley: byName(players, estimate.values),
    ...(estimate.ci ? { ci: byName(players, estimate.ci) } : {}),
    ...(singles && { fixAlone: byName(players, singles.map((v) => v - vEmpty)), resolvedAlone: players.filter((_, i) => singles[i] >= a.threshold) }),
    ...(complements && { leaveOneOut: byName(players, complements.map((v) => vAll - v)) }),
    lastTouch: m.lastTouch,
    cost: m.cost,
    evaluations: m.evaluations,
    queries: estimate.queries,
    ...(a.method === 'mc' ? { estimator: a.estimator } : {}),
    permutations: estimate.permutations,
    stopReason: estimate.stopReason,
    fixable: m.evaluated.some(([, v]) => v >= a.threshold),
    ...(skipped.length > 0 && { notComputed: skipped }),
    // A place held in the key order; attachPackedTable fills it with the table, unpacked when read.
    ...(listed ? { coalitions: undefined } : {}),
    ...(m.fixedOutputs !== undefined && { fixedOutputs: m.fixedOutputs }),
    ...(estimate.history && estimate.history.length ? { history: estimate.history } : {}),
    ...(a.interactions !== undefined && { interactions: a.interactions }),
    ...repaired,
    ...(alone && { aloneOutputs: alone }),
  };
  return listed ? attachPackedTable(result, packedEvaluated(m.evaluated)) : result;
}

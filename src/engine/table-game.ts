import type { AnalysisSettings, CaseResult, Game } from './types.ts';
import { attribute, interactionsFor } from './analyze.ts';
import { attributedResult, passedResult } from './case-result.ts';
import { refuseNonFinite } from './finite-results.ts';
import { resolveMethod } from './settings.ts';

/** Outcomes computed elsewhere (docs/formats.md, "Game files"): v by bitmask, bit i set when players[i] is fixed. */
export interface TableGame {
  id: string;
  players: string[];
  values: Float64Array;
  range?: [number, number];
}

/** A game read from a value table; each lookup counts as one evaluation, and there is no step cost. */
export class TableGameAdapter implements Game {
  readonly range: readonly [number, number];
  /** 1 where a coalition was looked up: a flat marker, since a Set and a sort of 2^20 masks cost seconds. */
  private readonly marks: Uint8Array;
  private count = 0;

  constructor(private readonly table: TableGame) {
    if (table.values.length !== 2 ** table.players.length) {
      throw new RangeError(`game "${table.id}": ${table.values.length} values for ${table.players.length} players (expected ${2 ** table.players.length})`);
    }
    this.range = table.range ?? inferRange(table.values);
    this.marks = new Uint8Array(table.values.length);
  }

  /** Number of distinct coalitions looked up. */
  get evaluations(): number {
    return this.count;
  }

  /** The coalitions looked up so far, in increasing mask order. */
  evaluatedMasks(): number[] {
    const out: number[] = [];
    for (let m = 0; m < this.marks.length; m++) if (this.marks[m] === 1) out.push(m);
    return out;
  }

  get players(): readonly string[] {
    return this.table.players;
  }

  value(mask: number): number {
    if (this.marks[mask] === 0) {
      this.marks[mask] = 1;
      this.count++;
    }
    return this.table.values[mask];
  }

  cost(): number {
    return 0;
  }
}

/** Without a declared range, the table's own min and max bound every value exactly. */
function inferRange(values: Float64Array): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const v of values) {
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  return lo < hi ? [lo, hi] : [lo, lo + 1];
}

/**
 * Analyse a game given as a value table: a game fails when v(empty) is below the threshold, and a
 * failing game gets Shapley and the two value-based baselines (no last-touch: there are no outputs).
 */
export function analyzeTableGame(table: TableGame, settings: AnalysisSettings, threshold = 1): CaseResult {
  const game = new TableGameAdapter(table);
  const method = resolveMethod(settings.method, table.players.length, settings.maxPermutations);
  const counts = () => ({ cost: 0, evaluations: game.evaluations });
  if (game.value(0) >= threshold) return refuseNonFinite(passedResult(table.id, game, method, counts));
  const { estimate } = attribute(game, table.id, settings);
  const interactions = interactionsFor(game, table.id, settings);
  return refuseNonFinite(attributedResult(game, {
    interactions,
    caseId: table.id,
    method,
    estimator: settings.estimator,
    estimate,
    threshold,
    ...(settings.repairs && {
      repairs: { success: settings.repairs.success ?? table.range?.[1] ?? 1, size: method === 'exact' ? table.players.length : settings.repairs.size },
    }),
    measured: () => ({ ...counts(), evaluated: game.evaluatedMasks().map((m) => [m, table.values[m]] as const), lastTouch: null }),
  }));
}

import type { AnalysisSettings, CaseResult, Game } from './types.ts';
import { attribute, COALITION_TABLE_MAX_PLAYERS } from './analyze.ts';
import { fixAlone, leaveOneOut } from './baselines.ts';

/** Outcomes computed elsewhere (DESIGN 4.3): v by bitmask, bit i set when players[i] is fixed. */
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

/** Analyse a game given as a value table: Shapley and the two value-based baselines (no last-touch: no outputs). */
export function analyzeTableGame(table: TableGame, settings: AnalysisSettings, threshold = 1): CaseResult {
  const game = new TableGameAdapter(table);
  const players = [...table.players];
  const { method, estimate } = attribute(game, table.id, settings);
  const vEmpty = game.value(0);
  const vAll = game.value(2 ** players.length - 1);
  const name = <T>(xs: readonly T[]) => Object.fromEntries(players.map((p, i) => [p, xs[i]])) as Record<string, T>;
  const evaluated = game.evaluatedMasks();
  return {
    id: table.id,
    players,
    method,
    failed: vEmpty < threshold,
    vEmpty,
    vAll,
    shapley: name(estimate.values),
    ...(estimate.ci ? { ci: name(estimate.ci) } : {}),
    fixAlone: name(fixAlone(game)),
    leaveOneOut: name(leaveOneOut(game)),
    lastTouch: null,
    cost: 0,
    evaluations: game.evaluations,
    queries: estimate.queries,
    ...(method === 'mc' ? { estimator: settings.estimator } : {}),
    permutations: estimate.permutations,
    stopReason: estimate.stopReason,
    fixable: evaluated.some((m) => table.values[m] >= threshold),
    ...(players.length <= COALITION_TABLE_MAX_PLAYERS
      ? { coalitions: evaluated.map((m) => ({ fixed: players.filter((_, i) => Math.floor(m / 2 ** i) % 2 === 1), value: table.values[m] })) }
      : {}),
    ...(estimate.history && estimate.history.length ? { history: estimate.history } : {}),
  };
}

/**
 * The most model requests a replay study can send, before it runs (the page's "N of at most M
 * requests"): per run, the coalitions its analysis evaluates, in each of its worlds, times its
 * model turns (each turn asks at most once per coalition and world: its own request, resampled,
 * another model's or a repair), plus the judge once per coalition and world when the outcome is a
 * judge. The empty coalition is the recorded run: its turns ask nothing. It is an upper bound
 * (`upper`) whenever a replayed turn may find its context unchanged (it then asks nothing), Monte
 * Carlo may stop early, or cases share requests; exact only for a run whose every turn must ask.
 */
import { resolveMethod } from '../engine/index.ts';
import { samplingQueryBudget } from '../engine/settings.ts';
import type { AnalysisSettings } from '../engine/types.ts';
import type { Outcome, ReplayRunData } from './types.ts';

export interface ReplayRequestBound {
  most: number;
  upper: boolean;
}

const OUTCOME_KINDS: readonly Outcome['kind'][] = ['expect', 'expect-regex', 'judge', 'metric'];

type BoundSettings = Pick<AnalysisSettings, 'method' | 'maxPermutations' | 'mode' | 'worlds'>;

/** `players`: the definition's steps (every case's game has them all); `outcome`: its kind (a judge asks too). */
export function replayRequestBound(runs: readonly Pick<ReplayRunData, 'players'>[] & readonly { turns: readonly { kind: string }[] }[], players: number, settings: BoundSettings, outcome: Outcome['kind']): ReplayRequestBound {
  const method = resolveMethod(settings.method, players, settings.maxPermutations);
  const all = 2 ** Math.min(players, 52);
  const coalitions = method === 'exact' ? all : Math.min(all, samplingQueryBudget(players, settings.maxPermutations));
  const worlds = settings.mode === 'recorded' ? 1 : settings.worlds;
  const judge = outcome === 'judge' ? 1 : 0;
  let most = 0;
  let upper = method !== 'exact' || runs.length > 1;
  for (const run of runs) {
    const modelTurns = run.turns.filter((t) => t.kind === 'model').length;
    most += worlds * ((coalitions - 1) * modelTurns + coalitions * judge);
    // A turn asks only when it is fixed or its context changed: with more than one model turn, or a
    // player that covers no model turn, some coalitions leave turns as recorded.
    if (modelTurns > 1 || run.players.length !== players) upper = true;
  }
  // The prior mode also replays each case's own world, for the factual run it is judged by.
  if (settings.mode === 'prior') most += runs.length * judge;
  return { most, upper };
}

/** The outcome kind written into a replay definition's source (`const OUTCOME = {...}`), or null for another definition. */
export function replayOutcomeKind(source: string): Outcome['kind'] | null {
  const written = /^const OUTCOME = \{"kind":"([a-z-]+)"/m.exec(source)?.[1];
  return OUTCOME_KINDS.find((kind) => kind === written) ?? null;
}

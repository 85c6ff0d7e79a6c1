/**
 * Which turn sent each model request of a replayed case (the `requests` of each turn in the
 * command's `replay` block). A sampled request carries the seed of its noise address (world,
 * step, key), and a replayed turn's key names it (`turn I`, `turn I resample`), so a request's
 * seed says which turn sent it, in which world. The judge's requests (`llm.choose`) are counted
 * apart; a request without a seed (a temperature-0 turn) cannot be told apart and is counted as
 * unattributed.
 */
import { worldsFor } from '../engine/blame-game.ts';
import type { ChatRequest } from '../engine/model-call.ts';
import { chatSeed } from '../engine/step-llm.ts';
import type { AnalysisSettings, CaseDef } from '../engine/types.ts';
import type { ReplayRunData, ReplayTurn } from './types.ts';

export interface TurnRequests {
  /** Distinct requests per turn index. */
  perTurn: number[];
  judge: number;
  unattributed: number;
}

/** The turn index each request seed of a case stands for (its model turns', in each of its worlds). */
export function turnSeeds(turns: readonly Pick<ReplayTurn, 'index' | 'kind' | 'segment'>[], steps: readonly string[], caseDef: CaseDef, settings: Pick<AnalysisSettings, 'mode' | 'worlds'>): Map<number, number> {
  const bySeed = new Map<number, number>();
  for (const world of worldsFor(caseDef, settings.mode, settings.worlds)) {
    for (const turn of turns) {
      if (turn.kind !== 'model') continue;
      const step = steps[turn.segment];
      for (const key of [`turn ${turn.index}`, `turn ${turn.index} resample`]) bySeed.set(chatSeed(world, step, key), turn.index);
    }
  }
  return bySeed;
}

export function turnRequests(plan: ReplayRunData, steps: readonly string[], caseDef: CaseDef, settings: Pick<AnalysisSettings, 'mode' | 'worlds'>, requests: readonly ChatRequest[]): TurnRequests {
  const bySeed = turnSeeds(plan.turns, steps, caseDef, settings);
  const out: TurnRequests = { perTurn: plan.turns.map(() => 0), judge: 0, unattributed: 0 };
  for (const request of requests) {
    const turn = request.seed !== undefined ? bySeed.get(request.seed) : undefined;
    if (request.logprobs) out.judge++;
    else if (turn !== undefined) out.perTurn[turn]++;
    else out.unattributed++;
  }
  return out;
}

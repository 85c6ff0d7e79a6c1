/**
 * The tool turns of a replayed case that reused their recorded result for a call that changed (no
 * stub for the tool): the replay's outputs mark each such turn `via: "reused"`, in the factual
 * run or with the fixes applied. They are flagged on the case, as the command's `toolsReused`.
 */
import type { CaseResult } from '../../engine/types.ts';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Turn indices, ascending, without repeats. */
export function reusedToolTurns(result: Pick<CaseResult, 'factualOutputs' | 'fixedOutputs'> | undefined): number[] {
  const found = new Set<number>();
  for (const outputs of [result?.factualOutputs, result?.fixedOutputs]) {
    for (const value of Object.values(outputs ?? {})) {
      if (!isObject(value) || !isObject(value.turns)) continue;
      for (const [index, turn] of Object.entries(value.turns)) if (isObject(turn) && turn.via === 'reused' && /^\d+$/.test(index)) found.add(Number(index));
    }
  }
  return [...found].sort((a, b) => a - b);
}

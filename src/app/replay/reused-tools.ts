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

/**
 * The Batch view's flag for a replay whose tool turns reused their record for changed calls: the
 * Replay view names the turns, but the Batch view is what opens first, and there a fix that seems
 * to repair nothing (the tool answered as recorded) reads as a finding unless it is said why.
 */
export function reusedToolsNote(results: readonly (Pick<CaseResult, 'factualOutputs' | 'fixedOutputs'> | undefined)[]): string | null {
  const flagged = results.filter((r) => reusedToolTurns(r).length > 0).length;
  if (flagged === 0) return null;
  const done = results.filter((r) => r !== undefined).length;
  const which = done === 1 ? 'The run' : `${flagged} of ${done} runs`;
  return `Flagged: ${which} reused a recorded tool result for a call that changed (no tool stub ran it), so fixes upstream of the tool could not change what it returned. The Replay view names the turns; give Tool stubs in the setup to run such calls.`;
}

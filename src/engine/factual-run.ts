import type { CaseDef, PipelineDef } from './types.ts';
import { fixIndices } from './blame-game.ts';
import { Replayer, type ReplayHooks } from './replay.ts';
import { worldsFor } from './blame-game.ts';

/** A case's factual run in its recorded world, with every categorical choice it made: what a trace records. */
export function factualRun(def: PipelineDef, c: CaseDef, hooks: ReplayHooks = {}): { outputs: Record<string, unknown>; score: number; observed: Record<string, Record<string, string>> } {
  const worlds = worldsFor(c, 'recorded', 1);
  const replayer = new Replayer(def, c, worlds, fixIndices(def, undefined), hooks, undefined, true);
  const run = replayer.runWorld(0, 0);
  // Keyed by step names, which may be `__proto__`: no prototype, so every name is an own entry.
  const observed: Record<string, Record<string, string>> = Object.create(null);
  for (const [step, choices] of worlds[0].choices) observed[step] = Object.fromEntries(choices);
  return { outputs: run.outputs, score: run.score, observed };
}

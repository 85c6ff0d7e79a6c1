/**
 * The regression game of two versions of a definition (docs/ci.md): the plan (which steps changed)
 * and the two definitions the hosts analyse, the game and its reverse.
 */
import { readDefinitionCode } from '../sandbox/step-code.ts';
import { planRegression, type RegressionPlan } from './plan.ts';
import { regressionDefinitionSource, type VersionFile } from './definition-source.ts';

export { RegressionPlanError } from './plan.ts';
export { storedRegressionGame } from './definition-source.ts';
export type { VersionFile } from './definition-source.ts';

export interface RegressionGame {
  plan: RegressionPlan;
  /** The game: each step as now, its fix its earlier version. Its failures are analysed. */
  source: string;
  /** Run and fix swapped: its factual run is the earlier version (its failures among cases passing now were fixed by the change). */
  reverseSource: string;
  /** The later definition's name and threshold (the game judges both versions by it). */
  name: string;
  threshold: number;
  range: [number, number];
}

/**
 * Compiles both versions (DefinitionError naming the file) and plans the game (RegressionPlanError
 * naming the step). A game with no change is still a game: every value is 0.
 */
export function buildRegressionGame(after: VersionFile, before: VersionFile): RegressionGame {
  const now = readDefinitionCode(after.source, after.fileName);
  const then = readDefinitionCode(before.source, before.fileName);
  const plan = planRegression(now, then);
  return {
    plan,
    source: regressionDefinitionSource(after, before, plan, now.name),
    reverseSource: regressionDefinitionSource(after, before, plan, now.name, true),
    name: now.name,
    threshold: now.threshold,
    range: now.range,
  };
}

import type { Game, Rng, ShapleyEstimate } from '../types.ts';
import { CountingGame } from './counting-game.ts';
import type { Estimator, EstimatorOptions } from './estimator.ts';
import { permutationEstimator } from './permutation.ts';
import { antitheticEstimator } from './antithetic.ts';
import { rotationEstimator } from './rotation.ts';
import { stratifiedEstimator } from './stratified.ts';
import { kernelEstimator } from './kernel.ts';
import { DEFAULT_ESTIMATOR, ESTIMATOR_NAME_LIST, LEGACY_ESTIMATOR, type EstimatorName } from './estimator-names.ts';

export type { EstimatorName };

/**
 * Every Monte Carlo Shapley estimator, by name: the one list the command's --estimator, the
 * settings panel, the session validator and the report read. Adding an estimator is one file
 * beside this one, its name in `estimator-names.ts` and one line here (the `satisfies` below keeps the two lists equal).
 */
const ESTIMATORS = {
  permutation: permutationEstimator,
  antithetic: antitheticEstimator,
  rotation: rotationEstimator,
  stratified: stratifiedEstimator,
  kernel: kernelEstimator,
} as const satisfies Record<EstimatorName, Estimator>;

/** The names in registry order (the settings panel lists them so). */
export const ESTIMATOR_NAMES: readonly EstimatorName[] = ESTIMATOR_NAME_LIST;

export { DEFAULT_ESTIMATOR, LEGACY_ESTIMATOR };

export function isEstimatorName(name: unknown): name is EstimatorName {
  return typeof name === 'string' && Object.hasOwn(ESTIMATORS, name);
}

/** The estimator registered under `name` (a RangeError naming the known ones otherwise). */
export function estimatorByName(name: string): Estimator {
  if (!isEstimatorName(name)) throw new RangeError(`unknown estimator "${name}" (known: ${ESTIMATOR_NAMES.join(', ')})`);
  return ESTIMATORS[name];
}

/** Every registered estimator with its name, label and summary, in registry order. */
export function listEstimators(): readonly Estimator[] {
  return ESTIMATOR_NAMES.map((name) => ESTIMATORS[name]);
}

/**
 * Run the named estimator and count the v(S) values it asked for, repeats included. It answers the
 * exact values once every coalition is known (unless `exactWhenKnown: false`), so sampling never
 * asks for more than the exact method would need.
 */
export function runEstimator(name: string, game: Game, rng: Rng, opts: EstimatorOptions): ShapleyEstimate {
  const estimator = estimatorByName(name);
  const counting = new CountingGame(game);
  const out = estimator.estimate(counting, rng, { ...opts, exactWhenKnown: opts.exactWhenKnown ?? true });
  return { ...out, queries: counting.queries };
}

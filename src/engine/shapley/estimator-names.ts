/**
 * The names of the Monte Carlo estimators, in registry order. Kept apart from the registry, which
 * imports every estimator (and they the engine's types), so `types.ts` can name a setting's
 * estimator without an import cycle.
 */
export const ESTIMATOR_NAME_LIST = ['permutation', 'antithetic', 'rotation', 'stratified', 'kernel'] as const;

export type EstimatorName = (typeof ESTIMATOR_NAME_LIST)[number];

/** The estimator a new analysis uses. */
export const DEFAULT_ESTIMATOR: EstimatorName = 'kernel';

/** The estimator a saved session without an `estimator` setting was run with (the only one there was). */
export const LEGACY_ESTIMATOR: EstimatorName = 'permutation';

/**
 * The names of the Monte Carlo estimators, in registry order. Kept apart from the registry, which
 * imports every estimator (and they the engine's types), so `types.ts` can name a setting's
 * estimator without an import cycle.
 */
export const ESTIMATOR_NAME_LIST = ['permutation', 'antithetic', 'rotation', 'stratified', 'kernel'] as const;

export type EstimatorName = (typeof ESTIMATOR_NAME_LIST)[number];

import type { AnalysisSettings, Game, Rng, ShapleyEstimate } from '../types.ts';

/** The Monte Carlo part of the analysis settings every estimator reads (budget: stop once the spent cost reaches it). */
export type EstimatorOptions = Pick<AnalysisSettings, 'delta' | 'stop' | 'width' | 'budget' | 'maxPermutations' | 'radius' | 'tieTolerance'> & {
  /**
   * Answer the exact values once every coalition has been asked for (up to 16 players; stop reason
   * `exact`). The analysis always asks for it (runEstimator); off, the estimator only samples, as
   * tests of its intervals need.
   */
  exactWhenKnown?: boolean;
};

/** What an estimator returns; the registry adds `queries` (it counts the v(S) calls itself). */
export type EstimatorOutput = Omit<ShapleyEstimate, 'queries'>;

/**
 * One Monte Carlo Shapley estimator behind the registry (shapiq's pattern): game, stop rule or
 * budget, and the injected random stream in; values, simultaneous intervals, cost and the
 * checkpoint history out. Every estimator must stay exactly efficient or say so in `summary`.
 */
export interface Estimator {
  /** What the settings, the command's --estimator and session files call it. */
  readonly name: string;
  /** A short label for the settings panel. */
  readonly label: string;
  /** One sentence: how it samples and what its intervals rest on. */
  readonly summary: string;
  estimate(game: Game, rng: Rng, opts: EstimatorOptions): EstimatorOutput;
}

import { wilsonInterval } from '../stats/wilson-interval.ts';

export interface ConsensusStep {
  step: string;
  /** Failing cases whose minimal repairs include the step. */
  cases: number;
  /** Failing cases searched for repairs. */
  of: number;
  /** cases / of (0 when there are none). */
  share: number;
  /** Wilson 95% interval of the share. */
  ci: [number, number];
}

/**
 * CausalFlow's causal consensus per step: the share of failing cases whose minimal repairs include
 * the step, with a Wilson score interval, since the counts are binomial and often small. Cases
 * with no repair within the search stay in the denominator: the step did not repair them.
 *
 * @param steps every step, in pipeline order
 * @param cases per failing case, its minimal repairs as lists of step names
 */
export function causalConsensus(steps: readonly string[], cases: readonly (readonly (readonly string[])[])[]): ConsensusStep[] {
  const of = cases.length;
  return steps.map((step) => {
    const count = cases.filter((repairs) => repairs.some((r) => r.includes(step))).length;
    return { step, cases: count, of, share: of === 0 ? 0 : count / of, ci: wilsonInterval(count, of) };
  });
}

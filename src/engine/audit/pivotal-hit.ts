/**
 * Top-1 agreement at the pivotal step (the credit-assignment audit's "precision at pivotal"): the
 * signal's single highest-scoring step is one of the steps with the largest ground-truth credit.
 * A tie at the signal's top is a miss: the signal did not single a step out. Null when the ground
 * truth has no pivotal step (all values equal) or there are no steps.
 */
export function pivotalHit(scores: readonly number[], truth: readonly number[]): boolean | null {
  if (truth.length === 0) return null;
  const tMax = Math.max(...truth);
  if (truth.every((t) => t === tMax)) return null;
  const sMax = Math.max(...scores);
  const top = scores.flatMap((s, i) => (s === sMax ? [i] : []));
  return top.length === 1 && truth[top[0]] === tMax;
}

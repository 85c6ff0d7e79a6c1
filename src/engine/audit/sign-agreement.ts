import { median } from '../stats/median.ts';

/**
 * Sign agreement within one case, as the credit-assignment audit splits it: each step's score and
 * its ground-truth credit are compared with their case's medians, and a step counts where both
 * sides fall off the median, agreeing when they fall on the same side.
 */
export function signAgreement(scores: readonly number[], truth: readonly number[]): { agree: number; n: number } {
  const sm = median(scores);
  const tm = median(truth);
  let agree = 0;
  let n = 0;
  for (let i = 0; i < scores.length; i++) {
    const s = Math.sign(scores[i] - sm);
    const t = Math.sign(truth[i] - tm);
    if (s === 0 || t === 0) continue;
    n++;
    if (s === t) agree++;
  }
  return { agree, n };
}

import { gumbelFromUniform, logAddExp, logSumExp } from './gumbel.ts';

/**
 * Posterior Gumbel noise given an observed Gumbel-max choice (top-down construction of
 * A* sampling, Maddison, Tarlow & Minka 2014): the maximum of the perturbed logits is
 * Gumbel(logsumexp l); the chosen option attains it; every other option's perturbed logit
 * is Gumbel(l_k) truncated to lie below the maximum, G = -ln(e^-M + e^-G').
 *
 * `uniformFor(option)` gives an addressed uniform per option, `uniformForMax` the one for M.
 * Returns the standard Gumbels g_k (perturbed logit minus logit), so that replaying the same
 * logits reproduces `chosen` exactly and changed logits reuse the same noise.
 */
export function abductGumbels(
  logits: Readonly<Record<string, number>>,
  chosen: string,
  uniformForMax: number,
  uniformFor: (option: string) => number,
): Record<string, number> {
  const options = Object.keys(logits);
  const lc = Object.hasOwn(logits, chosen) ? logits[chosen] : undefined;
  if (typeof chosen !== 'string' || lc === undefined) throw new Error(`observed choice "${chosen}" is not one of the options (${options.join(', ')})`);
  if (lc === -Infinity) throw new Error(`observed choice "${chosen}" has logit -Infinity, so it could not have been chosen`);
  const maxPerturbed = logSumExp(options.map((o) => logits[o])) + gumbelFromUniform(uniformForMax);
  const gumbels: Record<string, number> = {};
  for (const option of options) {
    const l = logits[option];
    if (option === chosen) {
      gumbels[option] = maxPerturbed - l;
    } else if (l === -Infinity) {
      // An impossible option never wins; its noise is irrelevant to the factual choice.
      gumbels[option] = gumbelFromUniform(uniformFor(option));
    } else {
      const untruncated = l + gumbelFromUniform(uniformFor(option));
      const truncated = -logAddExp(-maxPerturbed, -untruncated);
      gumbels[option] = truncated - l;
    }
  }
  return gumbels;
}

import type { StepDef } from '../types.ts';

/**
 * A retriever step that picks a document ("gold", "stale", ...) by Gumbel-max under the noise key
 * "doc", with a "reranker" fix that draws the same key under other weights: the sampled step the
 * abduction and record-check tests condition on.
 */
export function gumbelRetriever(input: string, weights: Record<string, number>, rerankedWeights: Record<string, number>): StepDef {
  return {
    name: 'retriever',
    inputs: [input],
    cost: 1,
    run: (_, noise) => noise.categorical(weights, 'doc'),
    fixes: [{ name: 'reranker', cost: 1, run: (_, noise) => noise.categorical(rerankedWeights, 'doc') }],
  };
}

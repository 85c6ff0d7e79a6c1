import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { withModelUse } from './uses-model.ts';
import { fakeSummary } from '../testing/fake-pool.ts';

const demo = (name: string) => readFileSync(new URL(`../../../public/demos/${name}.pipeline.js`, import.meta.url), 'utf8');

describe('withModelUse', () => {
  it('marks the demos whose steps call a model, and only those', () => {
    for (const name of ['support-triage', 'order-desk']) expect(withModelUse(fakeSummary(''), demo(name)).usesModel).toBe(true);
    for (const name of ['refund-policy', 'refund-policy-b', 'stochastic-rag', 'eight-step-agent']) expect(withModelUse(fakeSummary(''), demo(name))).not.toHaveProperty('usesModel');
  });

  it('sees each way a step reaches the capability', () => {
    const uses = (text: string) => withModelUse(fakeSummary(''), text).usesModel === true;
    expect(uses('run: (i, n, { llm }) => ask(llm, i)')).toBe(true);
    expect(uses('run: (i, n, { llm: model }) => model.chat(x)')).toBe(true);
    expect(uses('run: (i, n, tools) => tools.llm.chat(x)')).toBe(true);
    expect(uses('run: (i, n, t) => t.llm?.choose(x)')).toBe(true);
    expect(uses('const r = llm . chat({})')).toBe(true);
    // A word in a case's text or a string is not a call.
    expect(uses('run: ({ q }) => q.length, question: "what is an llm, really?"')).toBe(false);
    expect(uses('const llmish = 1; helllm.chat()')).toBe(false);
  });

  it('counts a definition that names its models as one that calls them', () => {
    expect(withModelUse(fakeSummary('', { models: { default: 'qwen2.5:0.5b' } }), 'steps: []').usesModel).toBe(true);
  });
});

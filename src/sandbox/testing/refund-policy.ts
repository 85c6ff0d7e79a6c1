/**
 * A small well-behaved definition for tests: four steps where the case succeeds iff the planner
 * is fixed, or the retriever is fixed, or both the writer and the reviewer are fixed. Its Shapley
 * values are planner 5/12, retriever 5/12, writer 1/12, reviewer 1/12 (v = max(P, R, W*V)).
 * Uses helpers before the export, noise draws, and fixes, like a real definition.
 */
export const REFUND_POLICY_SOURCE = `// Refund-policy question answering, reduced to its failure structure.
const GOOD = 'correct';

function draftFrom(plan, doc, careful) {
  if (plan.includes('2026') || doc === 'gold') return GOOD;
  return careful ? 'hedged' : 'wrong';
}

export default {
  name: 'refund-policy',
  steps: [
    { name: 'planner', inputs: ['question'], cost: 1,
      run: ({ question }) => 'plan without date: ' + question,
      fixes: [{ name: 'date constraint', cost: 1, run: ({ question }) => 'plan for 2026: ' + question }] },
    { name: 'retriever', inputs: ['planner'], cost: 2,
      run: (_, noise) => noise.categorical({ gold: 0, stale: 60 }, 'doc'),
      fixes: [{ name: 'reranker', cost: 4, run: (_, noise) => noise.categorical({ gold: 60, stale: 0 }, 'doc') }] },
    { name: 'writer', inputs: ['planner', 'retriever'], cost: 3,
      run: ({ planner, retriever }) => draftFrom(planner, retriever, false),
      fixes: [{ name: 'hedge when unsure', cost: 3, run: ({ planner, retriever }) => draftFrom(planner, retriever, true) }] },
    { name: 'reviewer', inputs: ['writer'], cost: 1,
      run: ({ writer }) => (writer === GOOD ? 'ok' : 'bad'),
      fixes: [{ name: 'resolve hedges', cost: 1, run: ({ writer }) => (writer === GOOD || writer === 'hedged' ? 'ok' : 'bad') }] },
  ],
  metric: (outputs) => (outputs.reviewer === 'ok' ? 1 : 0),
  cases: [
    { id: 'q1', inputs: { question: 'Can I get a refund after 30 days?' }, seed: 1 },
    { id: 'q2', inputs: { question: 'Is shipping refunded?' }, seed: 2 },
  ],
};
`;

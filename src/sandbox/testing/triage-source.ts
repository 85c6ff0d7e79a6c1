/**
 * The classify step of a support-triage definition, as source (it needs OPTIONS in scope): an
 * llm.choose over the ticket, with a "hint" fix that asks the model to prefer "refund".
 */
export const CLASSIFY_STEP_SOURCE = `    { name: 'classify', inputs: ['ticket'], cost: 1,
      run: ({ ticket }, noise, { llm }) => llm.choose({ messages: [{ role: 'user', content: 'Ticket: ' + ticket }], options: OPTIONS }),
      fixes: [{ name: 'hint', cost: 1, run: ({ ticket }, noise, { llm }) => llm.choose({ messages: [{ role: 'user', content: 'PREFER:refund Ticket: ' + ticket }], options: OPTIONS }) }] },`;

/**
 * A support-triage definition whose steps call a model (llm.choose, llm.chat) and one plain step:
 * the sandbox, pool and command tests analyse it against a toy or fake model.
 */
export const TRIAGE_SOURCE = `
const OPTIONS = ['refund', 'escalate', 'close'];
export default {
  name: 'triage',
  steps: [
${CLASSIFY_STEP_SOURCE}
    { name: 'draft', inputs: ['classify', 'ticket'], cost: 1,
      run: ({ classify, ticket }, noise, { llm }) => llm.chat({ messages: [{ role: 'system', content: classify === 'refund' ? 'ANSWER:refund-ok' : 'ANSWER:sorry' }, { role: 'user', content: ticket }], temperature: 0 }).text,
      fixes: [{ name: 'policy', cost: 1, run: ({ ticket }, noise, { llm }) => llm.chat({ messages: [{ role: 'system', content: 'ANSWER:refund-ok' }, { role: 'user', content: ticket }], temperature: 0 }).text }] },
    { name: 'review', inputs: ['draft'], cost: 1,
      run: ({ draft }, noise) => (noise.bernoulli(0.3, 'slip') ? 'lost' : draft),
      fixes: [{ name: 'checklist', cost: 1, run: ({ draft }) => draft }] },
  ],
  metric: (outputs) => (outputs.review === 'refund-ok' ? 1 : 0),
  cases: Array.from({ length: 8 }, (_, k) => ({ id: 't' + k, inputs: { ticket: 'order ' + k + ' arrived broken' }, seed: 100 + k })),
};
`;

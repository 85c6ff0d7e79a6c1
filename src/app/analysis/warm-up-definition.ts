/**
 * A small pipeline definition each analysis worker analyses for a moment after it starts, while
 * the page is still opening or the user is choosing a study, so that V8 has compiled the engine's
 * and the sandbox's hot code before the first real case (each worker is its own isolate and
 * otherwise compiles it during the first analysis, on the cores the analysis needs). It is made
 * up (not one of the demos) and exercises what most definitions do: sampled choices, fixes, nested
 * outputs of strings, numbers and booleans, a metric. Its results are thrown away.
 */
export const WARM_UP_FILE_NAME = 'worker-warm-up.js';

export const WARM_UP_SOURCE = `
const LABELS = ["billing", "shipping", "account", "other"];
function pick(noise, logits, key) { return noise.categorical(logits, key); }
function classifyWith(sure) {
  return ({ text, urgency }, noise) => {
    const label = pick(noise, { billing: sure * (text.length % 3), shipping: 1, account: 0.5, other: 0 }, "label");
    return { label, urgent: urgency > 0.5, score: Math.round(urgency * 100) / 100 };
  };
}
function lookupWith(depth) {
  return ({ classify }, noise) => {
    const hit = pick(noise, { hit: depth + (classify.urgent ? 1 : 0), miss: 0 }, "lookup") === "hit";
    return { records: hit ? [{ id: classify.label + "-1", amount: 12.5 }, { id: classify.label + "-2", amount: 3 }] : [], hit };
  };
}
function draftWith(care) {
  return ({ classify, lookup }, noise) => {
    const tone = pick(noise, { plain: care, curt: 0.5, wrong: lookup.hit ? -1 : 1 }, "tone");
    const total = lookup.records.reduce((sum, r) => sum + r.amount, 0);
    return { tone, text: "About your " + classify.label + ": " + total.toFixed(2), total };
  };
}
function reviewWith(strict) {
  return ({ draft }, noise) => {
    const flagged = draft.tone === "wrong" || pick(noise, { pass: strict, flag: 0 }, "review") === "flag";
    return { flagged, final: flagged ? null : draft.text };
  };
}
export default {
  name: "worker-warm-up",
  steps: [
    { name: "classify", inputs: ["text", "urgency"], cost: 1, run: classifyWith(0.5), fixes: [{ name: "better", cost: 2, run: classifyWith(2) }] },
    { name: "lookup", inputs: ["classify"], cost: 1, run: lookupWith(0.5), fixes: [{ name: "index", cost: 2, run: lookupWith(3) }] },
    { name: "draft", inputs: ["classify", "lookup"], cost: 2, run: draftWith(0.5), fixes: [{ name: "template", cost: 1, run: draftWith(3) }] },
    { name: "review", inputs: ["draft"], cost: 1, run: reviewWith(1), fixes: [{ name: "lenient", cost: 1, run: reviewWith(3) }] },
    { name: "send", inputs: ["review", "classify"], cost: 1, run: ({ review, classify }) => ({ sent: review.final !== null, queue: classify.urgent ? "fast" : "normal" }),
      fixes: [{ name: "always", cost: 1, run: ({ classify }) => ({ sent: true, queue: classify.urgent ? "fast" : "normal" }) }] },
  ],
  metric: (outputs) => (outputs.send.sent && outputs.draft.total > 0 ? 1 : 0),
  cases: Array.from({ length: 32 }, (_, i) => ({
    id: "warm-" + i,
    inputs: { text: LABELS[i % 4] + " question number " + i, urgency: (i * 7 % 10) / 10 },
    seed: 1000 + i,
  })),
};
`;

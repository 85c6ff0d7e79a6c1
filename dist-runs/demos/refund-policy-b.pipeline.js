// Refund-policy assistant, mechanism B.
//
// Identical to refund-policy.pipeline.js except for the reviewer's fix: here the reviewer checks
// *every* claim against the policy registry, cited or not. That makes the reviewer a sufficient fix
// by itself and the writer's citations irrelevant, so v(S) = 1 exactly when S holds the planner, the
// retriever or the reviewer, and the writer is a null player.
//
// The shared story:
// A customer asks how long they have to return an item. The knowledge base still holds the 2023
// policy (90 days), which the 2026 policy (30 days) replaced. As run, the pipeline answers from the
// old document. Four fixes are on offer, one per step:
//   planner   - add "in force in 2026" to the search plan
//   retriever - drop documents marked as superseded
//   writer    - cite the document each claim comes from
//   reviewer  - compare every claim with the policy registry and correct it if it disagrees
//
// Every step is deterministic: no noise is drawn, so every world gives the same answer.

// The documents the retriever can see. `terms` is what keyword matching scores against.
const DOCUMENTS = [
  {
    id: "refund-policy-2023",
    year: 2023,
    superseded: true,
    terms: ["refund", "return", "days", "window", "item", "receipt"],
    window: "90 days",
  },
  {
    id: "refund-policy-2026",
    year: 2026,
    superseded: false,
    terms: ["refund", "return", "days"],
    window: "30 days",
  },
];

// The registry the fixed reviewer consults: which document is in force for each topic.
const POLICY_REGISTRY = { refunds: { inForce: "refund-policy-2026", window: "30 days" } };

// Keyword overlap between a plan and a document; ties go to the earlier document.
function bestMatch(plan, documents) {
  let best = null;
  let bestScore = -1;
  for (const doc of documents) {
    const score = plan.terms.filter((t) => doc.terms.includes(t)).length;
    if (score > bestScore) {
      best = doc;
      bestScore = score;
    }
  }
  return best;
}

function searchTerms(question) {
  return question
    .toLowerCase()
    .replace(/[^a-z0-9 ]/g, " ")
    .split(/\s+/)
    .filter((word) => word.length > 2);
}

function retrieve(plan, documents) {
  const inRange = plan.year === null ? documents : documents.filter((d) => d.year === plan.year);
  const doc = bestMatch(plan, inRange);
  return { id: doc.id, window: doc.window };
}

export default {
  name: "refund-policy-b",
  steps: [
    {
      name: "planner",
      inputs: ["question"],
      cost: 1,
      // As run: turns the question into search terms, with no constraint on when a policy applied.
      run: ({ question }) => ({ terms: searchTerms(question), year: null }),
      fixes: [
        {
          name: "date constraint",
          cost: 1,
          run: ({ question }) => ({ terms: searchTerms(question), year: 2026 }),
        },
      ],
    },
    {
      name: "retriever",
      inputs: ["planner"],
      cost: 2,
      // As run: best keyword match; the old policy mentions more of the question's words.
      run: ({ planner }) => retrieve(planner, DOCUMENTS),
      fixes: [
        {
          name: "drop superseded",
          cost: 2,
          run: ({ planner }) => retrieve(planner, DOCUMENTS.filter((d) => !d.superseded)),
        },
      ],
    },
    {
      name: "writer",
      inputs: ["retriever"],
      cost: 1,
      // As run: states the window from the retrieved document and says nothing about where it came from.
      run: ({ retriever }) => ({ answer: retriever.window, citations: [] }),
      fixes: [
        {
          name: "cite sources",
          cost: 1,
          run: ({ retriever }) => ({ answer: retriever.window, citations: [retriever.id] }),
        },
      ],
    },
    {
      name: "reviewer",
      inputs: ["writer"],
      cost: 1,
      // As run: a style pass that approves the draft as written.
      run: ({ writer }) => ({ answer: writer.answer, corrected: false }),
      fixes: [
        {
          name: "check all claims",
          cost: 1,
          // Mechanism B: the stated window itself is compared with the registry, so a wrong claim
          // is caught whether or not the writer said where it came from.
          run: ({ writer }) => {
            const current = POLICY_REGISTRY.refunds;
            return writer.answer !== current.window
              ? { answer: current.window, corrected: true }
              : { answer: writer.answer, corrected: false };
          },
        },
      ],
    },
  ],
  metric: (outputs) => (outputs.reviewer.answer === "30 days" ? 1 : 0),
  cases: [
    {
      id: "refund-q1",
      inputs: { question: "How many days do I have to return an item for a refund if I have the receipt?" },
      seed: 1,
    },
  ],
};

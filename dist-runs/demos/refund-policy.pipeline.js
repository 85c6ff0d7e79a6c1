// Refund-policy assistant, mechanism A.
//
// A customer asks how long they have to return an item. The knowledge base still holds the 2023
// policy (90 days), which the 2026 policy (30 days) replaced. As run, the pipeline answers from the
// old document. Four fixes are on offer, one per step (each step's first fix is its default):
//   planner   - add "in force in 2026" to the search plan
//   retriever - drop documents marked as superseded
//               (a second, weaker fix can be chosen instead: "newest on ties" only breaks score
//               ties in favour of the newer document; the old policy matches more of the question's
//               words, so it still wins and this fix alone never repairs the answer)
//   writer    - cite the document each claim comes from
//   reviewer  - look every *cited* document up in the policy registry and correct the claim
//               if that document is no longer in force
// Planner and retriever are each enough on their own (over-determination); writer and reviewer
// only help together (conjunction): the reviewer has nothing to check unless the writer cites.
// So v(S) = 1 exactly when S holds the planner, or the retriever, or both writer and reviewer.
// With the retriever's "newest on ties" fix the retriever becomes a null player instead:
// v(S) = 1 exactly when S holds the planner, or both writer and reviewer.
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

// Keyword overlap between a plan and a document; ties go to the earlier document, or to the
// newer one when `newestOnTies` is set.
function bestMatch(plan, documents, newestOnTies = false) {
  let best = null;
  let bestScore = -1;
  for (const doc of documents) {
    const score = plan.terms.filter((t) => doc.terms.includes(t)).length;
    if (score > bestScore || (newestOnTies && score === bestScore && doc.year > best.year)) {
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

function retrieve(plan, documents, newestOnTies = false) {
  const inRange = plan.year === null ? documents : documents.filter((d) => d.year === plan.year);
  const doc = bestMatch(plan, inRange, newestOnTies);
  return { id: doc.id, window: doc.window };
}

export default {
  name: "refund-policy",
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
        {
          // Weaker: keeps every document and only prefers the newer one on equal keyword scores.
          name: "newest on ties",
          cost: 1,
          run: ({ planner }) => retrieve(planner, DOCUMENTS, true),
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
          name: "check cited claims",
          cost: 1,
          // Mechanism A: only claims that carry a citation can be checked. A claim citing a
          // document that is no longer in force is replaced by the registry's current value.
          run: ({ writer }) => {
            const current = POLICY_REGISTRY.refunds;
            const stale = writer.citations.some((id) => id !== current.inForce);
            return stale
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

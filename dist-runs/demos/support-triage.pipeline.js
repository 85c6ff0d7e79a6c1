// Support triage with model steps.
//
// NOTE: the responses shipped with this demo (support-triage.responses.jsonl) come from a small
// deterministic TEST model, not a real LLM: it answers "ANSWER:<x>" from a system message with
// <x>, and gives the option named by "PREFER:<option>" in a prompt most of the probability of an
// llm.choose. The demo shows how model steps are blamed; its "model" only follows those rules.
// Point it at a real endpoint (Settings > Model, or --model-url) and every request is new.
//
// A customer writes about a damaged order. Four steps:
//   classify - llm.choose: refund, replace or escalate. As run, the prompt has no policy, so the
//              model picks by its own odds; the fix adds the refund policy to the prompt.
//   lookup   - retrieval (simulated): picks the 2026 or the superseded 2019 policy by sampling;
//              the fix filters out superseded documents.
//   draft    - llm.chat: writes the reply for the class and document; the fix states the policy
//              in the system prompt, so a refund is offered whatever the class.
//   review   - llm.choose: approve or reject the draft; the fix gives the reviewer a checklist
//              that approves any reply citing the policy in force.
// A case succeeds when the customer gets an approved refund under the 2026 policy.

const POLICY_2026 = "Damaged items reported within 30 days are refunded in full (policy 2026).";
const OPTIONS = ["refund", "replace", "escalate"];

function classifyPrompt(ticket, withPolicy) {
  const messages = [{ role: "user", content: `Classify this support ticket.\nTicket: ${ticket}` }];
  if (withPolicy) messages.unshift({ role: "system", content: `${POLICY_2026} PREFER:refund` });
  else messages.unshift({ role: "system", content: "You triage support tickets." });
  return messages;
}

function draftMessages(kind, doc, ticket, policyInPrompt) {
  const offer = policyInPrompt || (kind === "refund" && doc === "policy-2026") ? "refund-offered" : kind === "replace" ? "replacement-offered" : "forwarded-to-team";
  return [
    { role: "system", content: `Write the reply to the customer. ANSWER:${offer}` },
    { role: "user", content: `Class: ${kind}. Document: ${doc}. Ticket: ${ticket}` },
  ];
}

function reviewMessages(draft, checklist) {
  const hint = draft === "refund-offered" ? (checklist ? "PREFER:approve" : "") : "PREFER:reject";
  return [{ role: "user", content: `Review this reply before it is sent: ${draft}. ${hint}`.trim() }];
}

export default {
  name: "support-triage",
  models: { default: "agentblame-test-model" },
  steps: [
    {
      name: "classify", inputs: ["ticket"], cost: 1,
      run: ({ ticket }, noise, { llm }) => llm.choose({ messages: classifyPrompt(ticket, false), options: OPTIONS }),
      fixes: [{ name: "policy in prompt", cost: 1, run: ({ ticket }, noise, { llm }) => llm.choose({ messages: classifyPrompt(ticket, true), options: OPTIONS }) }],
    },
    {
      name: "lookup", inputs: ["classify"], cost: 1,
      run: ({ classify }, noise) => noise.categorical({ "policy-2026": 1.0, "policy-2019": 0.8 }),
      fixes: [{ name: "drop superseded", cost: 2, run: ({ classify }, noise) => noise.categorical({ "policy-2026": 1.0, "policy-2019": -Infinity }) }],
    },
    {
      name: "draft", inputs: ["classify", "lookup", "ticket"], cost: 2,
      run: ({ classify, lookup, ticket }, noise, { llm }) => llm.chat({ messages: draftMessages(classify, lookup, ticket, false), temperature: 0, max_tokens: 200 }).text,
      fixes: [{ name: "policy in system prompt", cost: 2, run: ({ classify, lookup, ticket }, noise, { llm }) => llm.chat({ messages: draftMessages(classify, lookup, ticket, true), temperature: 0, max_tokens: 200 }).text }],
    },
    {
      name: "review", inputs: ["draft"], cost: 1,
      run: ({ draft }, noise, { llm }) => llm.choose({ messages: reviewMessages(draft, false), options: ["approve", "reject"] }),
      fixes: [{ name: "checklist", cost: 1, run: ({ draft }, noise, { llm }) => llm.choose({ messages: reviewMessages(draft, true), options: ["approve", "reject"] }) }],
    },
  ],
  metric: (outputs, inputs) => (outputs.draft === "refund-offered" && outputs.review === "approve" ? 1 : 0),
  cases: [
    "My blender arrived with a cracked jug.",
    "The headphones I ordered last week stopped working after one day.",
    "Order 5531: the parcel was crushed and the lamp inside is broken.",
    "The jacket has a torn seam, I received it yesterday.",
    "My coffee grinder came with a broken lid.",
    "The phone case arrived scratched and the box was wet.",
    "Two of the six glasses were shattered on arrival.",
    "The bike light does not switch on, delivered three days ago.",
    "My keyboard arrived with missing keys.",
    "The monitor stand is bent, it came like that.",
    "The toaster's lever is broken out of the box.",
    "My backpack zip came off on the first day.",
  ].map((ticket, k) => ({ id: `ticket-${k + 1}`, inputs: { ticket }, seed: 7000 + k })),
};

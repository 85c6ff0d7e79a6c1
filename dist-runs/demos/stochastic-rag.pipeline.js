// Stochastic retrieval-augmented QA over a product handbook, 200 questions.
//
//   rewrite -> retrieve -> answer -> verify
//
// Each step stands in for a sampled LLM or ranker call: it scores its options and picks one with
// Gumbel-max (`noise.categorical`). The fixes do not force the right outcome; they only move the
// scores (a stronger rewriting model, a reranker, a stronger answering model, a grounding check),
// so a fix can still be unlucky. Because the Gumbels are addressed by (world, step, key, option),
// a fixed step sees the same Gumbels as the step it replaces, and unchanged scores give back the
// recorded choice exactly.
//
// Harder questions (larger `difficulty`) make a vague rewrite and a wrong answer more likely.

// Each topic has the handbook passage that answers it and a near-miss passage that does not.
const TOPICS = [
  { question: "Which port does the admin console listen on?", answer: "8443", decoy: "8080",
    gold: "admin-console#network", distractor: "metrics-exporter#network" },
  { question: "How long are audit logs kept?", answer: "400 days", decoy: "90 days",
    gold: "audit-log#retention", distractor: "access-log#retention" },
  { question: "What is the largest upload the API accepts?", answer: "25 MB", decoy: "10 MB",
    gold: "api#limits", distractor: "web-ui#limits" },
  { question: "Which TLS versions are allowed?", answer: "1.2 and 1.3", decoy: "1.3 only",
    gold: "security#tls", distractor: "legacy-gateway#tls" },
  { question: "How often are backups taken?", answer: "every 6 hours", decoy: "daily",
    gold: "operations#backups", distractor: "operations#snapshots" },
];

const CASE_COUNT = 200;

// Logit of the favourable option (the other option has logit 0), as run and with each fix:
//   rewrite  "focused" vs "vague", falling with difficulty
//   retrieve "gold" vs "distractor" passage, depending on whether the query was focused
//   answer   "correct" vs "wrong", depending on whether the passage is the relevant one
//            (and falling with difficulty when it is)
//   verify   "catch" vs "miss" for a wrong answer
// With these scores about three in four questions fail as run.
const SCORES = {
  rewrite: { asRun: { base: 0.25, perDifficulty: -2.75 }, fix: { base: 3.75, perDifficulty: 0 } },
  retrieve: { asRun: { focused: 0.75, vague: -1.25 }, fix: { focused: 3.75, vague: 0.25 } },
  answer: { asRun: { relevant: 1.25, irrelevant: -4.25 }, fix: { relevant: 2.75, irrelevant: -2.25 } },
  verify: { asRun: -3, fix: -0.5 },
};

// Spread difficulties over [0, 1) without randomness: 37 is coprime with 100, so the 200 cases
// visit every hundredth twice.
function difficultyOf(index) {
  return ((index * 37) % 100) / 100;
}

function topicFor(question) {
  const topic = TOPICS.find((t) => t.question === question);
  if (!topic) throw new Error(`unknown question: ${question}`);
  return topic;
}

// rewrite: turn the question into a search query. A focused query names the component; a vague
// one paraphrases the question.
function rewriteWith(scores) {
  return ({ question, difficulty }, noise) => {
    const focusedLogit = scores.base + scores.perDifficulty * difficulty;
    const kind = noise.categorical({ focused: focusedLogit, vague: 0 }, "query");
    const topic = topicFor(question);
    return {
      focused: kind === "focused",
      query: kind === "focused" ? topic.gold.replace("#", " ") : question.toLowerCase(),
    };
  };
}

// retrieve: pick the top passage. A focused query makes the right passage score higher.
function retrieveWith(scores) {
  return ({ question, rewrite }, noise) => {
    const topic = topicFor(question);
    const goldLogit = rewrite.focused ? scores.focused : scores.vague;
    const pick = noise.categorical({ gold: goldLogit, distractor: 0 }, "passage");
    return { passage: pick === "gold" ? topic.gold : topic.distractor, relevant: pick === "gold" };
  };
}

// answer: read the passage and state a value. From the wrong passage the model mostly repeats
// the near-miss figure it finds there.
function answerWith(scores) {
  return ({ question, difficulty, retrieve }, noise) => {
    const topic = topicFor(question);
    const logit = retrieve.relevant ? scores.relevant - difficulty : scores.irrelevant;
    const pick = noise.categorical({ correct: logit, wrong: 0 }, "answer");
    return { text: pick === "correct" ? topic.answer : topic.decoy, correct: pick === "correct" };
  };
}

// verify: only a wrong answer can be caught. A caught answer is rewritten from the passage, which
// helps only if the passage is the right one; otherwise the pipeline abstains.
function verifyWith(catchLogit) {
  return ({ question, retrieve, answer }, noise) => {
    if (answer.correct) return { verdict: "pass", final: answer.text };
    const topic = topicFor(question);
    const caught = noise.categorical({ catch: catchLogit, miss: 0 }, "check") === "catch";
    if (!caught) return { verdict: "pass", final: answer.text };
    return retrieve.relevant
      ? { verdict: "rewritten", final: topic.answer }
      : { verdict: "abstain", final: null };
  };
}

export default {
  name: "stochastic-rag",
  steps: [
    {
      name: "rewrite",
      inputs: ["question", "difficulty"],
      cost: 1,
      run: rewriteWith(SCORES.rewrite.asRun),
      fixes: [
        {
          name: "stronger model",
          cost: 3,
          run: rewriteWith(SCORES.rewrite.fix),
        },
      ],
    },
    {
      name: "retrieve",
      inputs: ["question", "rewrite"],
      cost: 2,
      run: retrieveWith(SCORES.retrieve.asRun),
      fixes: [{ name: "reranker", cost: 4, run: retrieveWith(SCORES.retrieve.fix) }],
    },
    {
      name: "answer",
      inputs: ["question", "difficulty", "retrieve"],
      cost: 2,
      run: answerWith(SCORES.answer.asRun),
      fixes: [{ name: "stronger model", cost: 6, run: answerWith(SCORES.answer.fix) }],
    },
    {
      name: "verify",
      inputs: ["question", "retrieve", "answer"],
      cost: 1,
      run: verifyWith(SCORES.verify.asRun),
      fixes: [{ name: "grounding check", cost: 2, run: verifyWith(SCORES.verify.fix) }],
    },
  ],
  metric: (outputs, inputs) => (outputs.verify.final === topicFor(inputs.question).answer ? 1 : 0),
  cases: Array.from({ length: CASE_COUNT }, (_, i) => ({
    id: `rag-${String(i + 1).padStart(3, "0")}`,
    inputs: { question: TOPICS[i % TOPICS.length].question, difficulty: difficultyOf(i) },
    seed: 5000 + i,
  })),
};

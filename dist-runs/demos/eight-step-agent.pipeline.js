// An eight-step finance agent, 400 questions of the form "What was the operating margin of X in fiscal Y?".
//
//   intake -> router -> planner -> search -> extractor -> calculator -> drafter -> guardrail
//
// A reply counts only if four things hold at once: the question reached the finance desk, the figures
// came from the company's filing, the margin is right, and the guardrail let the draft through.
//
// As run, two things are always wrong, so no single fix can ever rescue a case:
//   - the old intake never tags the domain, and the old router only trusts that tag, so every
//     question is routed to the general desk;
//   - the old drafter prompt asks for "actionable" replies, so every draft ends in a buy/sell
//     recommendation, which the guardrail (rightly) blocks.
// Other steps fail only sometimes: the planner often prefers news over filings, the extractor can
// read the wrong table row, the calculator can misplace a decimal, the guardrail can flag a clean
// draft. Each of those choices is a Gumbel-max sample, so every fix that changes scores (rather than
// replacing the logic outright) reuses the same noise.
//
// The router's fix is an LLM classifier. It reads the question, and a tagged intake makes it surer,
// but it is still a sample: in a world whose Gumbels favour "general" it mis-routes even a tagged
// question, and then applying it next to the intake fix makes things worse (negative Shapley value).

// Figures from each company's annual filing, in millions.
const FILINGS = {
  "Acme Tools": { 2023: { revenue: 1840, operatingIncome: 212, grossProfit: 701 },
                  2024: { revenue: 1975, operatingIncome: 251, grossProfit: 768 },
                  2025: { revenue: 2110, operatingIncome: 238, grossProfit: 820 } },
  "Borealis Foods": { 2023: { revenue: 962, operatingIncome: 71, grossProfit: 288 },
                      2024: { revenue: 1013, operatingIncome: 88, grossProfit: 301 },
                      2025: { revenue: 1090, operatingIncome: 97, grossProfit: 334 } },
  "Cobalt Logistics": { 2023: { revenue: 3405, operatingIncome: 187, grossProfit: 612 },
                        2024: { revenue: 3322, operatingIncome: 149, grossProfit: 580 },
                        2025: { revenue: 3518, operatingIncome: 205, grossProfit: 655 } },
  "Delphi Health": { 2023: { revenue: 5120, operatingIncome: 814, grossProfit: 2611 },
                     2024: { revenue: 5388, operatingIncome: 862, grossProfit: 2770 },
                     2025: { revenue: 5702, operatingIncome: 935, grossProfit: 2944 } },
};
const COMPANIES = Object.keys(FILINGS);
const YEARS = [2023, 2024, 2025];
const CASE_COUNT = 400;

// Logit of the option named first (the other option has logit 0).
const SCORES = {
  // LLM classifier (router fix): "finance" vs "general".
  classifier: { tagged: 3.0, untagged: 2.0, perAmbiguity: -2.0 },
  // Planner: "filings" vs "news". Ambiguous questions pull the old prompt further towards news.
  planner: { asRun: -0.25, perAmbiguity: -1.0, fix: 3.0 },
  // Search: "hit" vs "miss" when looking for the filing.
  search: { asRun: 2.0, fix: 3.5 },
  // Extractor: "right" row vs a neighbouring row (gross profit read as operating income).
  extractor: { asRun: 2.0, fix: 4.0 },
  // Calculator (LLM arithmetic as run): "exact" vs a misplaced decimal. The fix is a code tool.
  calculator: { asRun: 2.0 },
  // Guardrail screen on a clean draft: "pass" vs a false-positive "block".
  guardrail: { asRun: 2.5, fix: 4.5 },
};

function percent(numerator, denominator) {
  return `${((100 * numerator) / denominator).toFixed(1)}%`;
}

function trueMargin(company, year) {
  const f = FILINGS[company][year];
  return percent(f.operatingIncome, f.revenue);
}

// Deterministic spread of ambiguity over [0, 1): phrasing varies across the test set.
function ambiguityOf(index) {
  return ((index * 53) % 100) / 100;
}

// As run: the question is passed on as free text, with no domain tag and no entities.
function intakeAsRun() {
  return { domain: null, company: null, year: null };
}

// Fix: a structured form that tags the domain and names the company and year (the test set's
// labels stand in for what the form would parse out of the question).
function intakeForm({ company, year }) {
  return { domain: "finance", company, year };
}

function routerRules({ intake }) {
  return intake.domain === "finance" ? "finance" : "general";
}

function routerClassifier({ intake, ambiguity }, noise) {
  const c = SCORES.classifier;
  const finance = intake.domain === "finance" ? c.tagged : c.untagged + c.perAmbiguity * ambiguity;
  return noise.categorical({ finance, general: 0 }, "desk");
}

function plannerWith(filingsLogit) {
  return ({ router, ambiguity }, noise) => {
    if (router !== "finance") return { desk: router, source: "none" };
    const logit = filingsLogit(ambiguity);
    return { desk: "finance", source: noise.categorical({ filings: logit, news: 0 }, "source") };
  };
}

function filingSearch(hitLogit, company, year, noise) {
  const found = noise.categorical({ hit: hitLogit, miss: 0 }, "results") === "hit";
  return found ? { document: `${company} annual report ${year}`, kind: "filing" } : { document: null, kind: "none" };
}

function searchAsRun({ planner, company, year }, noise) {
  if (planner.source === "filings") return filingSearch(SCORES.search.asRun, company, year, noise);
  if (planner.source === "news") return { document: `${company} earnings coverage`, kind: "news" };
  return { document: null, kind: "none" };
}

// Fix: a search index over filings only, used whatever the plan said.
function searchFinanceIndex({ company, year }, noise) {
  return filingSearch(SCORES.search.fix, company, year, noise);
}

function extractorWith(rightLogit) {
  return ({ search, company, year }, noise) => {
    if (search.kind !== "filing") return null;
    const f = FILINGS[company][year];
    const row = noise.categorical({ right: rightLogit, wrong: 0 }, "row");
    return { revenue: f.revenue, operatingIncome: row === "right" ? f.operatingIncome : f.grossProfit };
  };
}

function calculatorLlm({ extractor }, noise) {
  if (extractor === null) return null;
  const exact = percent(extractor.operatingIncome, extractor.revenue);
  const slip = noise.categorical({ exact: SCORES.calculator.asRun, slip: 0 }, "arithmetic") === "slip";
  return slip ? percent(extractor.operatingIncome, 10 * extractor.revenue) : exact;
}

function calculatorCode({ extractor }) {
  return extractor === null ? null : percent(extractor.operatingIncome, extractor.revenue);
}

function draftReply({ planner, search, calculator, company, year }, actionable) {
  const source = search.kind === "filing" ? "filing" : search.kind;
  const body =
    calculator === null
      ? `I could not find the operating margin of ${company} for fiscal ${year}.`
      : `The operating margin of ${company} in fiscal ${year} was ${calculator} (source: ${search.document}).`;
  const ending = actionable
    ? " We recommend buying the stock."
    : " This is information, not investment advice.";
  return { desk: planner.desk, source, value: calculator, text: body + ending };
}

const ADVICE = /\b(recommend|should) (buying|selling|buy|sell)\b/i;

function guardrailWith(passLogit) {
  return ({ drafter }, noise) => {
    if (ADVICE.test(drafter.text)) return { status: "blocked", reason: "investment advice" };
    const screen = noise.categorical({ pass: passLogit, block: 0 }, "screen");
    return screen === "pass" ? { status: "delivered", reason: null } : { status: "blocked", reason: "flagged by screen" };
  };
}

export default {
  name: "eight-step-agent",
  steps: [
    {
      name: "intake",
      inputs: ["question", "company", "year"],
      cost: 1,
      run: intakeAsRun,
      fixes: [{ name: "structured form", cost: 1, run: intakeForm }],
    },
    {
      name: "router",
      inputs: ["intake", "ambiguity"],
      cost: 1,
      run: routerRules,
      fixes: [{ name: "LLM classifier", cost: 2, run: routerClassifier }],
    },
    {
      name: "planner",
      inputs: ["router", "ambiguity"],
      cost: 2,
      run: plannerWith((a) => SCORES.planner.asRun + SCORES.planner.perAmbiguity * a),
      fixes: [{ name: "filings-first prompt", cost: 2, run: plannerWith(() => SCORES.planner.fix) }],
    },
    {
      name: "search",
      inputs: ["planner", "company", "year"],
      cost: 2,
      run: searchAsRun,
      fixes: [{ name: "finance index", cost: 3, run: searchFinanceIndex }],
    },
    {
      name: "extractor",
      inputs: ["search", "company", "year"],
      cost: 2,
      run: extractorWith(SCORES.extractor.asRun),
      fixes: [{ name: "table parser", cost: 3, run: extractorWith(SCORES.extractor.fix) }],
    },
    {
      name: "calculator",
      inputs: ["extractor"],
      cost: 1,
      run: calculatorLlm,
      fixes: [{ name: "code tool", cost: 1, run: calculatorCode }],
    },
    {
      name: "drafter",
      inputs: ["planner", "search", "calculator", "company", "year"],
      cost: 2,
      run: (inputs) => draftReply(inputs, true),
      fixes: [{ name: "compliance template", cost: 2, run: (inputs) => draftReply(inputs, false) }],
    },
    {
      name: "guardrail",
      inputs: ["drafter"],
      cost: 1,
      run: guardrailWith(SCORES.guardrail.asRun),
      fixes: [{ name: "calibrated screen", cost: 1, run: guardrailWith(SCORES.guardrail.fix) }],
    },
  ],
  metric: (outputs, inputs) =>
    outputs.guardrail.status === "delivered" &&
    outputs.drafter.desk === "finance" &&
    outputs.drafter.source === "filing" &&
    outputs.drafter.value === trueMargin(inputs.company, inputs.year)
      ? 1
      : 0,
  cases: Array.from({ length: CASE_COUNT }, (_, i) => {
    const company = COMPANIES[i % COMPANIES.length];
    const year = YEARS[Math.floor(i / COMPANIES.length) % YEARS.length];
    return {
      id: `agent-${String(i).padStart(3, "0")}`,
      inputs: {
        question: `What was the operating margin of ${company} in fiscal ${year}?`,
        company,
        year,
        ambiguity: ambiguityOf(i),
      },
      seed: 80003 + i,
    };
  }),
};

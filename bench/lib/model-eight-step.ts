/**
 * The 8-step finance agent (public/demos/eight-step-agent.pipeline.js) rewritten with model
 * steps, for the model-steps benchmark: each Gumbel-max choice of the original becomes an
 * `llm.choose` whose prompt carries what the step knows (the fake endpoint's test model favours
 * the option named by `PREFER:<option>`, so a prompt that names an option stands for a step that
 * usually gets it right), and the drafter's tone comes from an `llm.chat`. Same steps, inputs,
 * fixes and metric; the cases are the original's questions.
 */
export const MODEL_EIGHT_STEP_SOURCE = `
const FILINGS = {
  "Acme Tools": { 2023: [1840, 212, 701], 2024: [1975, 251, 768], 2025: [2110, 238, 820] },
  "Borealis Foods": { 2023: [962, 71, 288], 2024: [1013, 88, 301], 2025: [1090, 97, 334] },
  "Cobalt Logistics": { 2023: [3405, 187, 612], 2024: [3322, 149, 580], 2025: [3518, 205, 655] },
  "Delphi Health": { 2023: [5120, 814, 2611], 2024: [5388, 862, 2770], 2025: [5702, 935, 2944] },
};
const COMPANIES = Object.keys(FILINGS);
const YEARS = [2023, 2024, 2025];
const percent = (n, d) => ((100 * n) / d).toFixed(1) + "%";
const ask = (llm, system, user, options) =>
  llm.choose({ messages: [{ role: "system", content: system }, { role: "user", content: user }], options });

const intakeAsRun = () => ({ domain: null, company: null, year: null });
const intakeForm = ({ company, year }) => ({ domain: "finance", company, year });
const routerRules = ({ intake }) => (intake.domain === "finance" ? "finance" : "general");
const routerClassifier = ({ intake, question }, noise, { llm }) =>
  ask(llm, "Route the question to a desk." + (intake.domain === "finance" ? " PREFER:finance" : ""), question, ["finance", "general"]);
const plannerWith = (system) => ({ router, question }, noise, { llm }) =>
  router !== "finance" ? { desk: router, source: "none" } : { desk: "finance", source: ask(llm, system, question, ["filings", "news"]) };
const filingSearch = (llm, system, company, year) =>
  ask(llm, system, company + " annual report " + year, ["hit", "miss"]) === "hit"
    ? { document: company + " annual report " + year, kind: "filing" }
    : { document: null, kind: "none" };
const searchAsRun = ({ planner, company, year }, noise, { llm }) => {
  if (planner.source === "filings") return filingSearch(llm, "Search the web for the filing. PREFER:hit", company, year);
  if (planner.source === "news") return { document: company + " earnings coverage", kind: "news" };
  return { document: null, kind: "none" };
};
const searchIndex = ({ company, year }, noise, { llm }) => filingSearch(llm, "Search the finance index. PREFER:hit", company, year);
const extractorWith = (system) => ({ search, company, year }, noise, { llm }) => {
  if (search.kind !== "filing") return null;
  const [revenue, operatingIncome, grossProfit] = FILINGS[company][year];
  const row = ask(llm, system, "Which row of " + search.document + " is operating income?", ["right", "wrong"]);
  return { revenue, operatingIncome: row === "right" ? operatingIncome : grossProfit };
};
const calculatorLlm = ({ extractor }, noise, { llm }) => {
  if (extractor === null) return null;
  const exact = percent(extractor.operatingIncome, extractor.revenue);
  const slip = ask(llm, "Compute the margin. PREFER:exact", extractor.operatingIncome + " / " + extractor.revenue, ["exact", "slip"]) === "slip";
  return slip ? percent(extractor.operatingIncome, 10 * extractor.revenue) : exact;
};
const calculatorCode = ({ extractor }) => (extractor === null ? null : percent(extractor.operatingIncome, extractor.revenue));
const drafterWith = (system) => ({ planner, search, calculator, company, year }, noise, { llm }) => {
  const body = calculator === null
    ? "I could not find the operating margin of " + company + " for fiscal " + year + "."
    : "The operating margin of " + company + " in fiscal " + year + " was " + calculator + " (source: " + search.document + ").";
  const tone = llm.chat({ messages: [{ role: "system", content: system }, { role: "user", content: body }], temperature: 0, max_tokens: 20 }).text;
  const ending = tone === "buy" ? " We recommend buying the stock." : " This is information, not investment advice.";
  return { desk: planner.desk, source: search.kind, value: calculator, text: body + ending };
};
const guardrailWith = (system) => ({ drafter }, noise, { llm }) => {
  if (/\\b(recommend|should) (buying|selling|buy|sell)\\b/i.test(drafter.text)) return { status: "blocked", reason: "investment advice" };
  return ask(llm, system, drafter.text, ["pass", "block"]) === "pass" ? { status: "delivered", reason: null } : { status: "blocked", reason: "flagged by screen" };
};

export default {
  name: "eight-step-agent-model",
  models: { default: "fake-model" },
  steps: [
    { name: "intake", inputs: ["question", "company", "year"], cost: 1, run: intakeAsRun, fixes: [{ name: "structured form", cost: 1, run: intakeForm }] },
    { name: "router", inputs: ["intake", "question"], cost: 1, run: routerRules, fixes: [{ name: "LLM classifier", cost: 2, run: routerClassifier }] },
    { name: "planner", inputs: ["router", "question"], cost: 2, run: plannerWith("Plan where to look."), fixes: [{ name: "filings-first prompt", cost: 2, run: plannerWith("Prefer primary sources. PREFER:filings") }] },
    { name: "search", inputs: ["planner", "company", "year"], cost: 2, run: searchAsRun, fixes: [{ name: "finance index", cost: 3, run: searchIndex }] },
    { name: "extractor", inputs: ["search", "company", "year"], cost: 2, run: extractorWith("Read the table."), fixes: [{ name: "table parser", cost: 3, run: extractorWith("Parse the income statement. PREFER:right") }] },
    { name: "calculator", inputs: ["extractor"], cost: 1, run: calculatorLlm, fixes: [{ name: "code tool", cost: 1, run: calculatorCode }] },
    { name: "drafter", inputs: ["planner", "search", "calculator", "company", "year"], cost: 2, run: drafterWith("Be actionable. ANSWER:buy"), fixes: [{ name: "compliance template", cost: 2, run: drafterWith("No advice. ANSWER:inform") }] },
    { name: "guardrail", inputs: ["drafter"], cost: 1, run: guardrailWith("Screen the reply."), fixes: [{ name: "calibrated screen", cost: 1, run: guardrailWith("Screen the reply; pass clean facts. PREFER:pass") }] },
  ],
  metric: (outputs, inputs) => {
    const [revenue, operatingIncome] = FILINGS[inputs.company][inputs.year];
    return outputs.guardrail.status === "delivered" && outputs.drafter.desk === "finance" && outputs.drafter.source === "filing" && outputs.drafter.value === percent(operatingIncome, revenue) ? 1 : 0;
  },
  cases: Array.from({ length: 12 }, (_, i) => {
    const company = COMPANIES[i % COMPANIES.length];
    const year = YEARS[Math.floor(i / COMPANIES.length) % YEARS.length];
    return { id: "agent-" + String(i).padStart(3, "0"), inputs: { question: "What was the operating margin of " + company + " in fiscal " + year + "?", company, year }, seed: 80003 + i };
  }),
};
`;

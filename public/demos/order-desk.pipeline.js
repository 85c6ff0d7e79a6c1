// Order desk: a model example whose metric works with any instruction-following model.
//
// The support-triage demo is meaningful only with its deterministic test model. This one scores
// what any model that follows instructions can be checked on: does the reply quote the customer's
// order number, and did the ticket go to the right team? Run it against a real endpoint (README,
// "Model steps": the commands for Ollama and llama-server); the responses shipped beside it come
// from the small deterministic TEST model, so it also opens with no model at all.
//
// A customer writes about an order. Three steps:
//   extract - llm.chat: the order number, digits only. The fix reads it with a regular
//             expression (no model).
//   route   - llm.choose: shipping, billing or technical. The fix describes each team in the prompt.
//   reply   - llm.chat: one sentence to the customer quoting the order number. The fix is a
//             template (no model) that quotes what extract found.
// Score: half for a reply that holds the order number, half for the right team.

const TEAMS = ["shipping", "billing", "technical"];

function routeMessages(ticket, described) {
  const system = described
    ? "Route support tickets. shipping: parcels late, lost or damaged in transit. billing: charges, refunds, invoices. technical: a product that does not work."
    : "Route support tickets.";
  return [{ role: "system", content: system }, { role: "user", content: `Which team handles this ticket?\nTicket: ${ticket}` }];
}

function digits(text) {
  return (/\d{3,}/.exec(String(text)) ?? [""])[0];
}

export default {
  name: "order-desk",
  models: { default: "local" },
  steps: [
    {
      name: "extract", inputs: ["ticket"], cost: 1,
      run: ({ ticket }, noise, { llm }) => digits(llm.chat({ messages: [{ role: "system", content: "Reply with the order number in the customer's message: digits only, nothing else." }, { role: "user", content: ticket }], temperature: 0, max_tokens: 12 }).text),
      fixes: [{ name: "regular expression", cost: 1, run: ({ ticket }) => digits(ticket) }],
    },
    {
      name: "route", inputs: ["ticket"], cost: 1,
      run: ({ ticket }, noise, { llm }) => llm.choose({ messages: routeMessages(ticket, false), options: TEAMS }),
      fixes: [{ name: "team descriptions", cost: 1, run: ({ ticket }, noise, { llm }) => llm.choose({ messages: routeMessages(ticket, true), options: TEAMS }) }],
    },
    {
      name: "reply", inputs: ["extract", "route", "ticket"], cost: 2,
      run: ({ extract, route, ticket }, noise, { llm }) => llm.chat({
        messages: [
          { role: "system", content: "You answer customers in one short sentence. Always quote their order number." },
          { role: "user", content: `Order number: ${extract}. Team: ${route}. Customer: ${ticket}` },
        ],
        temperature: 0, max_tokens: 60,
      }).text,
      fixes: [{ name: "template", cost: 1, run: ({ extract, route }) => `Thank you: order ${extract} is with our ${route} team.` }],
    },
  ],
  metric: (outputs, inputs) => 0.5 * (String(outputs.reply).includes(inputs.order) ? 1 : 0) + 0.5 * (outputs.route === inputs.team ? 1 : 0),
  cases: [
    { ticket: "Order 48213: the parcel has been stuck in transit for two weeks.", order: "48213", team: "shipping" },
    { ticket: "I was charged twice for order 77102, please refund one payment.", order: "77102", team: "billing" },
    { ticket: "The router from order 30551 will not switch on.", order: "30551", team: "technical" },
    { ticket: "My box for order 91874 arrived crushed.", order: "91874", team: "shipping" },
    { ticket: "Order 12690: the invoice shows the wrong address.", order: "12690", team: "billing" },
    { ticket: "The app keeps crashing on the watch I got with order 55437.", order: "55437", team: "technical" },
  ].map((inputs, k) => ({ id: `order-${k + 1}`, inputs })),
};

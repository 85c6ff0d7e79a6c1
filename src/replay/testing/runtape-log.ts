/**
 * A synthetic runtape log of N turns (docs/replay.md, "What a replay costs"): a support agent that
 * alternates a model call (a native tool call) and the tool's result, as runtape records them: each
 * request is the previous one (`base`) plus the call and its result (`messages_append`), so the log
 * grows linearly with its turns while every request's full context grows with the turn. The last
 * model call answers in text. Used by the replay scaling rows of the bench and by the size tests.
 */
const TOOLS = [
  { type: 'function', function: { name: 'lookup_order', description: 'Look up an order', parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] } } },
  { type: 'function', function: { name: 'search_kb', description: 'Search the help center', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } } },
];

/** `turns` turns (rounded up to even): turns/2 model calls, each but the last followed by its tool call. */
export function runtapeLog(turns: number): string {
  const calls = Math.max(1, Math.ceil(turns / 2));
  const lines: unknown[] = [];
  let id = 0;
  const event = (type: string, parent: number | null, payload: unknown) => {
    lines.push({ id, ts: 1790739094 + id / 1000, type, parent, payload, meta: {} });
    return id++;
  };
  event('run_start', null, { run_id: `bench-${turns}`, format: 'runtape', version: 1, name: `bench-${turns}` });
  let base: number | null = null;
  let append: unknown[] = [
    { role: 'system', content: 'You are a support agent. Use the tools to look orders up and search the help center, then answer the customer.' },
    { role: 'user', content: 'My standing desk H-9884 arrived damaged. Can I get a refund?' },
  ];
  for (let k = 0; k < calls; k++) {
    const request = event('llm_request', null, { provider: 'openai', model: 'bench-model', api: 'chat.completions', tools: TOOLS, ...(base === null ? { messages: append } : { base, messages_append: append }), params: { max_tokens: 400 } });
    if (k === calls - 1) {
      event('llm_response', request, { text: 'The refund of 420.00 for order H-9884 is approved. FINAL ANSWER: refund approved', tool_calls: [], stop_reason: 'stop' });
      break;
    }
    const name = k % 2 === 0 ? 'lookup_order' : 'search_kb';
    const args = k % 2 === 0 ? { order_id: `H-${9000 + k}` } : { query: `refund policy question ${k}` };
    const callId = `call_${k}`;
    event('llm_response', request, { text: null, tool_calls: [{ id: callId, name, arguments: args }], stop_reason: 'tool_calls' });
    const call = event('tool_call', null, { name, arguments: args, call_id: callId });
    const result = k % 2 === 0 ? JSON.stringify({ order_id: args.order_id, item: `Standing desk model ${k}`, total: 400 + k, delivered: '2026-09-21', status: 'delivered' }) : JSON.stringify([{ title: `Policy ${k}`, text: `Damaged items of case ${k} are refunded in full once a photo shows the damage; card refunds take 5 to 10 business days.` }]);
    event('tool_result', call, { name, result });
    base = request;
    append = [
      { role: 'assistant', content: null, tool_calls: [{ id: callId, type: 'function', function: { name, arguments: JSON.stringify(args) } }] },
      { role: 'tool', tool_call_id: callId, content: result },
    ];
  }
  event('run_end', null, { status: 'ok', duration_ms: 1000 });
  return lines.map((l) => JSON.stringify(l)).join('\n') + '\n';
}

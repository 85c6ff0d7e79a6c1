/**
 * Small recorded runs with a planted culprit, in two formats, and the scripted model that knows
 * the right answers: a Who&When-shaped log (a transcript, no requests) and a Langfuse export
 * (each generation with its request messages). In both, the calculator answers 6 x 7 = 48; a
 * repaired calculator says 42, and every later turn follows what it is told.
 */
import type { ChatRequest, ModelResponse } from '../../engine/model-call.ts';
import { says } from './model-loop.ts';

/** Who&When-shaped: the human's question, a planner, the culprit, a terminal, the reporter. */
export const WHOWHEN_LOG = {
  is_correct: false,
  question: 'What is 6 times 7?',
  question_ID: 'q-42',
  ground_truth: '42',
  history: [
    { role: 'human', content: 'What is 6 times 7?' },
    { role: 'assistant', name: 'Planner', content: 'Plan: the Calculator multiplies 6 by 7, then the Reporter answers.' },
    { role: 'assistant', name: 'Calculator', content: 'print(6 * 8)  # 6 times 7' },
    { role: 'user', name: 'Computer_terminal', content: 'exitcode: 0 (execution succeeded)\nCode output: 48' },
    { role: 'assistant', name: 'Reporter', content: 'The final answer is 48. TERMINATE' },
  ],
  mistake_agent: 'Calculator',
  mistake_step: '2',
  mistake_reason: 'multiplied by 8',
};

/** The same run as a Langfuse export: generations with their request messages, the terminal a tool observation. */
export function langfuseExport(): unknown {
  const system = (agent: string) => ({ role: 'system', content: `You are the ${agent}.` });
  const question = { role: 'user', content: 'What is 6 times 7?' };
  const plan = 'Plan: the Calculator multiplies 6 by 7, then the Reporter answers.';
  const code = 'print(6 * 8)  # 6 times 7';
  const result = 'exitcode: 0 (execution succeeded)\nCode output: 48';
  const at = (s: number) => `2026-11-30T10:00:0${s}.000Z`;
  const generation = (id: string, agent: string, input: unknown[], output: string, s: number) => ({
    id, traceId: 't1', type: 'GENERATION', name: `${agent} chat`, startTime: at(s), endTime: at(s), model: 'gpt-test',
    parentObservationId: `agent-${agent}`, input, output: { role: 'assistant', content: output }, metadata: JSON.stringify({ attributes: { 'gen_ai.agent.name': agent } }),
  });
  const agentSpan = (agent: string, s: number) => ({ id: `agent-${agent}`, traceId: 't1', type: 'AGENT', name: agent, startTime: at(s), endTime: at(s) });
  return {
    trace: { id: 't1', name: 'multiply', timestamp: at(0), input: 'What is 6 times 7?' },
    observations: [
      agentSpan('Planner', 1),
      generation('g1', 'Planner', [system('Planner'), question], plan, 1),
      agentSpan('Calculator', 2),
      generation('g2', 'Calculator', [system('Calculator'), question, { role: 'assistant', content: plan }], code, 2),
      { id: 'tool1', traceId: 't1', type: 'TOOL', name: 'python', startTime: at(3), endTime: at(3), input: code, output: result },
      agentSpan('Reporter', 4),
      generation('g3', 'Reporter', [system('Reporter'), question, { role: 'assistant', content: plan }, { role: 'assistant', content: code }, { role: 'user', content: result }], 'The final answer is 48. TERMINATE', 4),
    ],
  };
}

function speaker(request: ChatRequest): string {
  const system = request.messages.find((m) => m.role === 'system')?.content ?? '';
  return /You are (?:the )?(\w+)/.exec(system)?.[1] ?? '';
}

/**
 * The scripted model: the calculator, asked again, computes 6 * 7; the reporter reports what the
 * latest number in its context says; the planner repeats its plan. A terminal stub runs the code.
 */
export function scriptedModel(request: ChatRequest): ModelResponse {
  const who = speaker(request);
  const all = request.messages.map((m) => m.content).join('\n');
  if (request.logprobs) {
    // The judge (pass = A, fail = B): passes a final answer of 42, by a margin no Gumbel draw undoes in practice.
    const pass = /Final answer:\n[^\n]*\b42\b/.test(all);
    return { text: pass ? 'A' : 'B', finish: 'length', usage: { input: 1, output: 1 }, topLogprobs: [{ token: pass ? 'A' : 'B', logprob: -1e-9 }, { token: pass ? 'B' : 'A', logprob: -40 }] };
  }
  if (who === 'Calculator') return says('print(6 * 7)  # 6 times 7');
  if (who === 'Planner') return says('Plan: the Calculator multiplies 6 by 7, then the Reporter answers.');
  if (who === 'Reporter') {
    const numbers = [...all.matchAll(/Code output: (\d+)|print\(6 \* (\d)\)/g)].map((m) => (m[1] !== undefined ? Number(m[1]) : 6 * Number(m[2])));
    return says(`The final answer is ${numbers.at(-1) ?? 0}. TERMINATE`);
  }
  return says('I do not know.');
}

/**
 * The Langfuse run with real tool calls: the calculator's answer calls `python` with JSON
 * arguments, and the tool observation answers that call. The scripted model's repaired calculator
 * calls it with the right code.
 */
export function langfuseWithToolCalls(): unknown {
  const base = langfuseExport() as { trace: unknown; observations: Record<string, unknown>[] };
  const call = (code: string) => ({ role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'python', arguments: JSON.stringify({ code }) } }] });
  const observations = base.observations.map((o) => {
    if (o.id === 'g2') return { ...o, output: call('print(6 * 8)'), metadata: JSON.stringify({ attributes: { 'gen_ai.request.tools': JSON.stringify([{ type: 'function', function: { name: 'python', parameters: { type: 'object' } } }]) } }) };
    if (o.id === 'tool1') return { ...o, input: JSON.stringify({ code: 'print(6 * 8)' }) };
    if (o.id === 'g3') return { ...o, input: [{ role: 'system', content: 'You are the Reporter.' }, { role: 'user', content: 'What is 6 times 7?' }, { role: 'user', content: 'exitcode: 0 (execution succeeded)\nCode output: 48' }] };
    return o;
  });
  return { ...base, observations };
}

/** scriptedModel, with the calculator answering by a tool call (when the request offers tools). */
export function scriptedToolModel(request: ChatRequest): ModelResponse {
  const who = speaker(request);
  if (who === 'Calculator' && request.tools) return { text: '', finish: 'tool_calls', usage: { input: 1, output: 1 }, toolCalls: [{ name: 'python', arguments: JSON.stringify({ code: 'print(6 * 7)' }) }] };
  return scriptedModel(request);
}

/**
 * A runtape recording of a native tool-calling agent (our own, shaped like runtape's bench runs):
 * tools recorded once on the first request, arguments recorded as objects (the reader shows them
 * pretty-printed) while the later requests quote them compact, as the agent sent them. The agent
 * looks the order up, reads the refund policy, then refunds the amount the policy allows.
 */
export function runtapeToolRun(): string {
  const tools = ['lookup_order', 'search_kb', 'issue_refund'].map((name) => ({ type: 'function', function: { name, description: `the ${name} tool`, parameters: { type: 'object' } } }));
  const order = '{"order_id": "A-1", "total": 420.0}';
  const policy = '[{"title": "Refunds", "text": "Refund damaged items in full."}]';
  const call = (id: string, name: string, args: Record<string, unknown>) => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args) } });
  const events = [
    { id: 0, ts: 1, type: 'run_start', parent: null, payload: { run_id: 'refund-1', name: 'refund-agent' }, meta: {} },
    { id: 1, ts: 2, type: 'llm_request', parent: null, payload: { model: 'fake-model', api: 'chat.completions', tools, messages: [{ role: 'system', content: 'You are a support agent.' }, { role: 'user', content: 'My desk A-1 arrived broken. Refund please.' }], params: { max_tokens: 300, temperature: 0.2 } }, meta: { agent: 'support' } },
    { id: 2, ts: 3, type: 'llm_response', parent: 1, payload: { text: null, tool_calls: [{ id: 'call_1', name: 'lookup_order', arguments: { order_id: 'A-1' } }], stop_reason: 'tool_calls' }, meta: {} },
    { id: 3, ts: 4, type: 'tool_call', parent: null, payload: { name: 'lookup_order', arguments: { order_id: 'A-1' }, call_id: 'call_1' }, meta: {} },
    { id: 4, ts: 5, type: 'tool_result', parent: 3, payload: { name: 'lookup_order', result: JSON.parse(order) }, meta: {} },
    { id: 5, ts: 6, type: 'llm_request', parent: null, payload: { model: 'fake-model', base: 1, messages_append: [{ role: 'assistant', content: null, tool_calls: [call('call_1', 'lookup_order', { order_id: 'A-1' })] }, { role: 'tool', tool_call_id: 'call_1', content: order }], params: { max_tokens: 300, temperature: 0.2 } }, meta: { agent: 'support' } },
    { id: 6, ts: 7, type: 'llm_response', parent: 5, payload: { text: null, tool_calls: [{ id: 'call_2', name: 'search_kb', arguments: { query: 'refund damaged' } }], stop_reason: 'tool_calls' }, meta: {} },
    { id: 7, ts: 8, type: 'tool_call', parent: null, payload: { name: 'search_kb', arguments: { query: 'refund damaged' }, call_id: 'call_2' }, meta: {} },
    { id: 8, ts: 9, type: 'tool_result', parent: 7, payload: { name: 'search_kb', result: policy }, meta: {} },
    { id: 9, ts: 10, type: 'llm_request', parent: null, payload: { model: 'fake-model', base: 5, messages_append: [{ role: 'assistant', content: null, tool_calls: [call('call_2', 'search_kb', { query: 'refund damaged' })] }, { role: 'tool', tool_call_id: 'call_2', content: policy }], params: { max_tokens: 300, temperature: 0.2 } }, meta: { agent: 'support' } },
    { id: 10, ts: 11, type: 'llm_response', parent: 9, payload: { text: 'Refunded 420.0 for order A-1.', tool_calls: [], stop_reason: 'stop' }, meta: {} },
    { id: 11, ts: 12, type: 'run_end', parent: null, payload: { status: 'ok' }, meta: {} },
  ];
  return events.map((e) => JSON.stringify(e)).join('\n') + '\n';
}

/**
 * The refund agent as a model that calls tools natively (answers with `toolCalls` only): it looks
 * the order up, reads the policy, then refunds in full when the policy says "in full" and half
 * otherwise, saying so in text.
 */
export function nativeRefundModel(request: ChatRequest): ModelResponse {
  const call = (name: string, args: Record<string, unknown>): ModelResponse => ({ text: '', finish: 'tool_calls', usage: { input: 1, output: 1 }, toolCalls: [{ id: `srv_${name}`, name, arguments: JSON.stringify(args) }] });
  const results = request.messages.filter((m) => m.role === 'tool').map((m) => m.content);
  if (results.length === 0) return call('lookup_order', { order_id: 'A-1' });
  if (results.length === 1) return call('search_kb', { query: 'refund damaged' });
  return says(/in full/.test(results.join('\n')) ? 'Refunded 420.0 for order A-1.' : 'Refunded 210.0 for order A-1.');
}

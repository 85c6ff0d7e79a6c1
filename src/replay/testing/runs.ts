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

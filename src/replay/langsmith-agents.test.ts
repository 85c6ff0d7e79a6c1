/**
 * LangSmith runs of a two-agent LangChain app: LangChain's `create_agent` tags every run inside an
 * agent with `extra.metadata.lc_agent_name`; the model calls are `wrap_openai` runs (OpenAI-style
 * `inputs.messages`, `outputs.choices[].message.tool_calls`) and LangChain chat-model runs
 * (serialized `AIMessage` whose `kwargs.tool_calls` carry `args` as an object).
 */
import { describe, expect, it } from 'vitest';
import { readLangSmith } from '../formats/importers/langsmith.ts';
import { buildReplay, recordedContext, turnLinks } from './index.ts';

const TRACE = '0193a1b2-0000-7000-8000-0000000000a0';

function run(n: number, parent: number | null, name: string, runType: string, agent: string | null, extra: Record<string, unknown>) {
  const id = `0193a1b2-0000-7000-8000-0000000000a${n}`;
  const at = `2026-12-01T10:00:0${n}.000000`;
  return {
    id, name, run_type: runType, trace_id: TRACE, parent_run_id: parent === null ? null : `0193a1b2-0000-7000-8000-0000000000a${parent}`,
    dotted_order: `20261201T10000${n}000000Z${id}`, start_time: at, end_time: at, status: 'success',
    extra: { metadata: { ...(agent !== null && { lc_agent_name: agent }), ls_model_name: 'gpt-4o-mini' } },
    ...extra,
  };
}

const CALL = { id: 'call_1', type: 'function', function: { name: 'search', arguments: '{"q":"tallest tree"}' } };
const RESULT = { answer: 'Hyperion, 116 m' };

function twoAgents(): unknown {
  const ask = { role: 'user', content: 'Which tree is tallest?' };
  return [
    run(0, null, 'supervisor', 'chain', null, { inputs: { messages: [ask] }, outputs: { output: 'done' } }),
    run(1, 0, 'researcher', 'chain', 'researcher', { inputs: {}, outputs: {} }),
    run(2, 1, 'ChatOpenAI', 'llm', 'researcher', { inputs: { messages: [ask] }, outputs: { choices: [{ message: { role: 'assistant', content: null, tool_calls: [CALL] } }] } }),
    // The result pretty-printed as the tool recorded it; the next request quotes it compact.
    run(3, 1, 'search', 'tool', 'researcher', { inputs: { q: 'tallest tree' }, outputs: { output: JSON.stringify(RESULT, null, 2) } }),
    run(4, 1, 'ChatOpenAI', 'llm', 'researcher', {
      inputs: { messages: [ask, { role: 'assistant', content: null, tool_calls: [CALL] }, { role: 'tool', tool_call_id: 'call_1', content: JSON.stringify(RESULT) }] },
      outputs: { choices: [{ message: { role: 'assistant', content: 'Hyperion, a coast redwood, at 116 m.' } }] },
    }),
    run(5, 0, 'writer', 'chain', 'writer', { inputs: {}, outputs: {} }),
    run(6, 5, 'ChatOpenAI', 'llm', 'writer', {
      inputs: { messages: [{ role: 'system', content: 'Write one line.' }, { role: 'user', content: 'Hyperion, a coast redwood, at 116 m.' }] },
      outputs: { choices: [{ message: { role: 'assistant', content: 'The tallest tree is Hyperion (116 m).' } }] },
    }),
  ];
}

function plan(players: 'steps' | 'agents') {
  const recorded = readLangSmith(JSON.stringify(twoAgents())).runs[0];
  return buildReplay([recorded], { players, fixes: [], outcome: { kind: 'expect', text: 'Hyperion' }, origin: 'test' });
}

describe('LangSmith runs inside LangChain agents', () => {
  it('names each turn after the agent that lc_agent_name records, and each agent is a player', () => {
    const def = plan('agents');
    expect(def.runs[0].turns.map((t) => t.name)).toEqual(['researcher · gpt-4o-mini', 'tool search', 'researcher · gpt-4o-mini', 'writer · gpt-4o-mini']);
    expect(def.steps).toEqual(['researcher', 'writer']);
  });

  it('reads the wrapped client\'s tool calls and tool messages, and depends through them', () => {
    const def = plan('steps');
    const p = def.runs[0];
    expect(p.turns[0].toolCalls).toEqual([{ id: 'call_1', name: 'search', arguments: '{"q":"tallest tree"}' }]);
    expect(recordedContext(p.turns[2], p).map((m) => [m.role, m.tool_calls?.[0].function.name, m.tool_call_id])).toEqual([['user', undefined, undefined], ['assistant', 'search', undefined], ['tool', undefined, 'call_1']]);
    expect(turnLinks(p).map((l) => l.dependsOn)).toEqual([[], [0], [0, 1], [2]]);
  });

  it('without lc_agent_name, a model turn is named after its model, never after the run', () => {
    const plain = (twoAgents() as { extra: { metadata: Record<string, unknown> } }[]).map((r) => ({ ...r, extra: { metadata: { ls_model_name: 'gpt-4o-mini' } } }));
    const recorded = readLangSmith(JSON.stringify(plain)).runs[0];
    const def = buildReplay([recorded], { players: 'steps', fixes: [], outcome: { kind: 'expect', text: 'Hyperion' }, origin: 'test' });
    expect(def.runs[0].turns.map((t) => t.name)).toEqual(['gpt-4o-mini', 'tool search', 'gpt-4o-mini', 'gpt-4o-mini']);
  });
});

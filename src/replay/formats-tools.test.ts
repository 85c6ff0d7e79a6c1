/**
 * What every format gives the replay's message model: tool calls as `tool_calls` + `tool`
 * messages, the recorded tools and sampling parameters, the agents. Our own small fixtures (a
 * Langfuse export of a LangChain agent inside pydantic-ai-style agent spans), then the shared
 * samples when they are beside the checkout.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseInputFile } from '../formats/detect.ts';
import { readLangfuse } from '../formats/importers/langfuse.ts';
import { NO_SAMPLES, sharedSamplesDir } from '../formats/test-helpers.ts';
import type { RecordedRun } from '../runs/index.ts';
import { buildReplay, recordedContext, turnLinks } from './index.ts';

const TOOLS = [{ type: 'function', function: { name: 'search', description: 'Search the web', parameters: { type: 'object', properties: { q: { type: 'string' } } } } }];

/** Two pydantic-ai agents (`agent_name` on their spans); the researcher's generations are LangChain's, their calls in `additional_kwargs`. */
function langfuseAgents(): unknown {
  const at = (s: number) => `2026-12-01T10:00:0${s}.000Z`;
  const gen = (id: string, parent: string, s: number, input: unknown, output: unknown) => ({
    id, traceId: 't', type: 'GENERATION', name: 'ChatOpenAI', parentObservationId: parent, startTime: at(s), endTime: at(s), model: 'gpt-4o-mini',
    modelParameters: { temperature: 0.3, max_tokens: 512, top_p: 'null' }, toolDefinitions: { search: TOOLS[0].function }, input, output,
  });
  const agent = (id: string, name: string, s: number) => ({ id, traceId: 't', type: 'SPAN', name: `${name} run`, startTime: at(s), endTime: at(s + 3), metadata: JSON.stringify({ attributes: { agent_name: name } }) });
  const call = { id: 'call_a', type: 'function', function: { name: 'search', arguments: '{"q":"tallest tree"}' } };
  const result = '{"answer": "Hyperion, 116 m"}';
  return {
    trace: { id: 't', name: 'trees', timestamp: at(0) },
    observations: [
      agent('a1', 'researcher', 1),
      gen('g1', 'a1', 1, [{ role: 'user', content: 'Which tree is tallest?' }], { role: 'assistant', content: '', additional_kwargs: { tool_calls: [call] } }),
      { id: 'tool1', traceId: 't', type: 'TOOL', name: 'search', parentObservationId: 'a1', startTime: at(2), endTime: at(2), input: '{"q": "tallest tree"}', output: result },
      gen('g2', 'a1', 3, [{ role: 'user', content: 'Which tree is tallest?' }, { role: 'assistant', content: '', additional_kwargs: { tool_calls: [call] } }, { role: 'tool', tool_call_id: 'call_a', content: result }], { role: 'assistant', content: 'Hyperion, a coast redwood, at 116 m.' }),
      agent('a2', 'writer', 5),
      gen('g3', 'a2', 5, [{ role: 'system', content: 'Write one line.' }, { role: 'user', content: 'Hyperion, a coast redwood, at 116 m.' }], { role: 'assistant', content: 'The tallest tree is Hyperion (116 m).' }),
    ],
  };
}

function plan(run: RecordedRun, players: 'steps' | 'agents' = 'steps') {
  return buildReplay([run], { players, fixes: [], outcome: { kind: 'expect', text: 'x' }, origin: 'test' });
}

describe('wrappers that record the call one level above the provider span (agno, Vercel AI SDK through Langfuse)', () => {
  const fixture = readFileSync(join(import.meta.dirname, '../formats/recorded/fixtures/agno-vercel.langfuse.trace.json'), 'utf8');
  const run = readLangfuse(fixture).runs[0];

  it('reads the request and answer the wrapper recorded into the model turn inside it', () => {
    const p = plan(run).runs[0];
    const models = p.turns.filter((t) => t.kind === 'model');
    expect(models).toHaveLength(2);
    // agno: `OpenAIChat.invoke` recorded the request and answer; its `chat gpt-4o-mini` child recorded neither.
    expect(recordedContext(models[0], p).map((m) => [m.role, m.content])).toEqual([['user', 'When can I get a refund?']]);
    expect(models[0].output).toBe('Within 30 days.');
    // The Vercel AI SDK's doGenerate recorded its own answer; no request was recorded anywhere above it.
    expect(models[1].output).toBe('Within 30 days.');
    expect(models[1].context).toBeUndefined();
  });
});

describe('a Langfuse export of LangChain generations in agent spans', () => {
  const run = readLangfuse(JSON.stringify(langfuseAgents())).runs[0];

  it('reads the calls LangChain keeps in additional_kwargs as tool_calls, answered by tool messages', () => {
    const def = plan(run);
    const turns = def.runs[0].turns;
    expect(turns.map((t) => t.name)).toEqual(['researcher · gpt-4o-mini', 'tool search', 'researcher · gpt-4o-mini', 'writer · gpt-4o-mini']);
    expect(turns[0].toolCalls).toEqual([{ id: 'call_a', name: 'search', arguments: '{"q":"tallest tree"}' }]);
    const context = recordedContext(turns[2], def.runs[0]);
    expect(context.map((m) => [m.role, m.tool_calls?.[0].function.name, m.tool_call_id])).toEqual([['user', undefined, undefined], ['assistant', 'search', undefined], ['tool', undefined, 'call_a']]);
    // The second call quotes the search result (and the call), the writer the researcher's answer.
    expect(turnLinks(def.runs[0]).map((l) => l.dependsOn)).toEqual([[], [0], [0, 1], [2]]);
  });

  it('keeps the recorded modelParameters and toolDefinitions ("null" left out), and each agent is a player', () => {
    const def = plan(run);
    const turn = def.runs[0].turns[0];
    expect(turn).toMatchObject({ temperature: 0.3, max_tokens: 512 });
    expect(turn.top_p).toBeUndefined();
    expect(def.runs[0].toolSets[turn.tools!]).toEqual(TOOLS);
    expect(plan(run, 'agents').steps).toEqual(['researcher', 'writer']);
  });
});

const shared = sharedSamplesDir();

describe.skipIf(shared === null)('the shared samples in the message model', () => {
  if (shared === null) it.skip(NO_SAMPLES, () => {});
  const read = (name: string) => {
    const input = parseInputFile(readFileSync(join(shared!, name), 'utf8'), name);
    if (input.kind !== 'runs') throw new Error(`${name} is not a run`);
    return input.runs.runs[0];
  };

  it('runtape: tools, tool_calls + tool messages, results recorded pretty but quoted compact still depended on, max_tokens', () => {
    const def = plan(read('runtape/runtape_bench_llama-3.1-8b_refund-000.jsonl'));
    const p = def.runs[0];
    expect(turnLinks(p).map((l) => l.dependsOn)).toEqual([[], [0], [0, 1], [2], [0, 1, 2, 3]]);
    const last = p.turns[4];
    expect(recordedContext(last, p).map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(last.max_tokens).toBe(400);
    expect(p.toolSets[last.tools!]).toHaveLength(6);
    // The run's name (bench-refund-000) names no agent: a turn without one is named after its model.
    expect(last.name).toBe('meta-llama/llama-3.1-8b-instruct');
  });

  it('OTel (OpenLLMetry): tools, temperature and the calls of each request', () => {
    const def = plan(read('otel-genai/runtape-fixture_openllmetry-0.62.4.otlp.json'));
    const p = def.runs[0];
    expect(p.turns.every((t) => t.temperature === 0.7 && t.tools !== undefined)).toBe(true);
    expect(recordedContext(p.turns[2], p).map((m) => m.role[0] + (m.tool_calls ? 'C' : '') + (m.tool_call_id ? 'I' : '')).join('')).toBe('suaCtIaCtI');
    expect(turnLinks(p).map((l) => l.dependsOn)).toEqual([[], [0], [0, 1]]);
  });

  it('Langfuse (OpenAI Agents, beeai): tools and temperature recorded in the export', () => {
    const agents = plan(read('langfuse/langfuse-repo_openai-agents-2025-09-30.trace.json')).runs[0];
    expect(agents.turns.map((t) => t.name)).toEqual(['Hello world · gpt-4.1-2025-04-14', 'tool get_weather', 'Hello world · gpt-4.1-2025-04-14']);
    expect(turnLinks(agents)[2].dependsOn).toEqual([0, 1]);
    expect(agents.turns[0]).toMatchObject({ temperature: 1 });
    expect(agents.toolSets[agents.turns[0].tools!][0]).toMatchObject({ type: 'function', function: { name: 'get_weather' } });
    const beeai = plan(read('langfuse/langfuse-repo_beeai-2025-08-01.trace.json')).runs[0];
    const chats = beeai.turns.filter((t) => t.name.endsWith('· gpt-4o-mini'));
    expect(chats.length).toBeGreaterThanOrEqual(3);
    expect(chats.every((t) => t.temperature === 0.7)).toBe(true);
  });
});

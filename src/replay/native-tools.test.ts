import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../engine/settings.ts';
import type { AnalysisSettings } from '../engine/types.ts';
import { readRuntape } from '../formats/importers/runtape.ts';
import { buildReplay, recordedContext, turnLinks, type ReplayOptions } from './index.ts';
import { analyzeWithModel } from './testing/model-loop.ts';
import { nativeRefundModel, runtapeToolRun } from './testing/runs.ts';

const SETTINGS: AnalysisSettings = { ...DEFAULT_SETTINGS, method: 'exact', mode: 'recorded', models: { default: 'fake-model' } };

function replay(options: Partial<ReplayOptions> = {}) {
  const run = readRuntape(runtapeToolRun()).runs[0];
  // The recorded run refunds 420 where half was owed: a failure to blame.
  return buildReplay([run], { players: 'steps', fixes: [], outcome: { kind: 'expect', text: '210' }, origin: 'test', ...options });
}

describe('a native tool-calling run (runtape) as replay turns', () => {
  it('keeps the recorded calls as tool_calls and the results as tool messages with their call ids', () => {
    const run = replay().runs[0];
    const turns = run.turns;
    expect(turns.map((t) => [t.kind, t.name])).toEqual([
      ['model', 'support · fake-model'],
      ['tool', 'tool lookup_order'],
      ['model', 'support · fake-model'],
      ['tool', 'tool search_kb'],
      ['model', 'support · fake-model'],
    ]);
    const last = recordedContext(turns[4], run);
    expect(last.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(last[2].tool_calls).toEqual([{ id: 'call_1', type: 'function', function: { name: 'lookup_order', arguments: '{"order_id":"A-1"}' } }]);
    expect(last[3]).toMatchObject({ role: 'tool', tool_call_id: 'call_1' });
    // The recorded answers' calls, compact JSON as the wire carries them (the reader pretty-prints them).
    expect(turns[0].toolCalls).toEqual([{ id: 'call_1', name: 'lookup_order', arguments: '{"order_id":"A-1"}' }]);
    expect(turns[0]).toMatchObject({ temperature: 0.2, max_tokens: 300 });
    expect(run.toolSets[turns[0].tools!].map((t) => (t as { function: { name: string } }).function.name)).toEqual(['lookup_order', 'search_kb', 'issue_refund']);
  });

  it('depends on tool results by their call (the result recorded as an object, quoted as text) and on earlier calls', () => {
    const run = replay().runs[0];
    expect(turnLinks(run).map((l) => l.dependsOn)).toEqual([[], [0], [0, 1], [2], [0, 1, 2, 3]]);
    // Each distinct message once: the assistant's calls quote the model turns, the tool messages the tool turns.
    const quoted = run.messages.map((m) => (m.quotes ?? []).map((q) => [q.call === undefined ? 'text' : 'call', q.from]));
    expect(quoted).toEqual([[], [], [['call', 0]], [['text', 1]], [['call', 2]], [['text', 3]]]);
  });
});

describe('a native tool-calling run replayed', () => {
  it('sends the recorded tools, parameters and native messages, and reads the native answers back', () => {
    const def = replay({ fixes: [{ turn: '5', fix: 'resample' }] });
    expect(def.steps).toEqual(['1 support', '3 support', '5 support']);
    const { result, sent } = analyzeWithModel(def.source, def.cases[0], SETTINGS, nativeRefundModel);
    expect(result.error).toBeUndefined();
    const request = sent.find((r) => r.messages.some((m) => m.role === 'tool'));
    expect(request?.tools?.map((t) => (t as { function: { name: string } }).function.name)).toEqual(['lookup_order', 'search_kb', 'issue_refund']);
    expect(request).toMatchObject({ temperature: 0.2, max_tokens: 300 });
    expect(request?.messages.find((m) => m.role === 'tool')?.tool_call_id).toBe('call_1');
    // A native answer that makes the recorded call again (another id, the same name and arguments) is the same call:
    // the tool turns keep their results, so no request carries anything but the recorded results.
    expect(sent.flatMap((r) => r.messages.filter((m) => m.role === 'tool').map((m) => m.content))).not.toContain('');
    expect(result.vEmpty).toBe(0);
    expect(result.vAll).toBe(0);
  });

  it('observation: on a tool turn changes the request of the next model turn that carries its result', () => {
    const half = '[{"title": "Refunds", "text": "Refund half for damaged items."}]';
    const def = replay({ fixes: [{ turn: 'search_kb', fix: `observation:${half}` }] });
    expect(def.steps).toEqual(['1 support', '3 support', '4 search_kb', '5 support']);
    const { result, sent } = analyzeWithModel(def.source, def.cases[0], SETTINGS, nativeRefundModel);
    expect(result.error).toBeUndefined();
    // The last model turn is sent with the new result in the tool message that answers call_2, and now refunds half.
    const carried = sent.filter((r) => r.messages.some((m) => m.tool_call_id === 'call_2' && m.content === half));
    expect(carried.length).toBeGreaterThan(0);
    expect(carried.every((r) => r.messages.filter((m) => m.role === 'tool').length === 2)).toBe(true);
    expect(result.fixAlone!['4 search_kb']).toBe(1);
  });

  it('a replayed call that changed reaches the later turns as their assistant tool_calls; a call not made is left out with its result', () => {
    const stub = { file: { fileName: 'tools.js', source: 'export default { lookup_order: (args) => JSON.stringify({ order_id: args.order_id, total: 99 }) };' }, names: new Set(['lookup_order']) };
    // The first turn, asked again, looks up another order; its tool turn runs the stub.
    const other = (request: Parameters<typeof nativeRefundModel>[0]) => (request.messages.some((m) => m.role === 'tool') ? nativeRefundModel(request) : { text: '', finish: 'tool_calls', usage: { input: 1, output: 1 }, toolCalls: [{ name: 'lookup_order', arguments: '{"order_id":"B-2"}' }] });
    const def = replay({ tools: stub, fixes: [{ turn: '1', fix: 'resample' }] });
    const { sent } = analyzeWithModel(def.source, def.cases[0], SETTINGS, other);
    const second = sent.find((r) => r.messages.length === 4 && r.messages[2].tool_calls?.[0].function.arguments.includes('B-2'));
    expect(second?.messages[2].tool_calls).toEqual([{ id: 'call_1', type: 'function', function: { name: 'lookup_order', arguments: '{"order_id":"B-2"}' } }]);
    expect(second?.messages[3]).toEqual({ role: 'tool', content: '{"order_id":"B-2","total":99}', tool_call_id: 'call_1' });
    // Asked again with no tool call at all: the later turns see neither the call nor its result.
    const silent = (request: Parameters<typeof nativeRefundModel>[0]) => (request.messages.some((m) => m.role === 'tool') ? nativeRefundModel(request) : { text: 'I need nothing.', finish: 'stop', usage: { input: 1, output: 1 } });
    const { sent: without } = analyzeWithModel(def.source, def.cases[0], SETTINGS, silent);
    const later = without.filter((r) => r.messages.some((m) => m.role === 'assistant' && m.content === 'I need nothing.'));
    expect(later.length).toBeGreaterThan(0);
    for (const r of later) expect(r.messages.some((m) => m.tool_call_id === 'call_1' || m.tool_calls?.some((c) => c.id === 'call_1'))).toBe(false);
    expect(later[0].messages.slice(0, 3)).toEqual([expect.objectContaining({ role: 'system' }), expect.objectContaining({ role: 'user' }), { role: 'assistant', content: 'I need nothing.' }]);
  });
});

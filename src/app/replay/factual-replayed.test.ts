import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../engine/settings.ts';
import type { AnalysisSettings, CaseResult } from '../../engine/types.ts';
import { readLangfuse } from '../../formats/importers/langfuse.ts';
import { buildReplay } from '../../replay/index.ts';
import { analyzeWithModel } from '../../replay/testing/model-loop.ts';
import { langfuseExport, scriptedModel } from '../../replay/testing/runs.ts';
import { answerText, coalitionChoices, factualRows, FactualReplayed, requestText } from './factual-replayed.svelte.ts';

const SETTINGS: AnalysisSettings = { ...DEFAULT_SETTINGS, method: 'exact', mode: 'recorded', models: { default: 'fake-model' }, repairs: { size: 4 } };
const STUB = `export default { python: (code) => { const m = /print\\((\\d+) \\* (\\d+)\\)/.exec(code); return 'exitcode: 0 (execution succeeded)\\nCode output: ' + (m ? m[1] * m[2] : '?'); } };`;

/** The multiply run blamed with the repairs searched: the calculator's repair alone is the minimal one. */
function blamed() {
  const run = readLangfuse(JSON.stringify(langfuseExport())).runs[0];
  const def = buildReplay([run], { players: 'steps', fixes: [], outcome: { kind: 'expect', text: '42' }, origin: 'test', tools: { file: { fileName: 'tools.js', source: STUB }, names: new Set(['python']) } });
  const { result } = analyzeWithModel(def.source, def.cases[0], SETTINGS, scriptedModel);
  return { steps: def.steps, result, recording: JSON.parse(JSON.stringify(def.cases[0].inputs!.recording)) as unknown };
}

describe('recorded beside replayed', () => {
  const { steps, result, recording } = blamed();

  it('offers the repair first, then every fix, then each step\'s fix alone, each with its fixed players', () => {
    const choices = coalitionChoices(result, steps);
    expect(choices.map((c) => c.id)).toEqual(['repair', 'all', ...steps.map((s) => `alone:${s}`)]);
    expect(choices[2]).toMatchObject({ label: `${steps[0]}: its fix alone`, fixed: new Set([0]) });
    expect(choices[0].label).toBe(`The repair: ${steps[1]}`);
    expect([...choices[0].fixed]).toEqual([1]);
    expect(choices[1].label).toBe('Every fix (4 steps)');
    expect([...choices[1].fixed]).toEqual([0, 1, 2, 3]);
    // Nothing to show for a run that passed, or an error.
    const passed = { ...result, failed: false } as unknown as CaseResult;
    expect(coalitionChoices(passed, steps)).toEqual([]);
    // No repair search: the step whose fix alone reaches the outcome is the repair.
    const unsearched = { ...result, repairs: undefined, repairSearch: undefined, repairedOutputs: undefined } as CaseResult;
    const first = coalitionChoices(unsearched, steps)[0];
    expect(first).toMatchObject({ id: 'repair', label: `The repair: ${steps[1]} alone`, fixed: new Set([1]) });
    expect(first.outputs).toBe(result.aloneOutputs![steps[1]]);
    // Nor that: every fix first.
    expect(coalitionChoices({ ...unsearched, resolvedAlone: [] } as CaseResult, steps)[0].id).toBe('all');
  });

  it('the repair changes the calculator and what follows it; the planner before it folds', () => {
    const view = new FactualReplayed(() => ({ recording, result, steps }));
    expect(view.chosen?.id).toBe('repair');
    expect(view.turns.map((t) => [t.agent, t.fixed])).toEqual([
      ['Planner', false],
      ['Calculator', true],
      ['python', false],
      ['Reporter', false],
    ]);
    expect(view.changed).toBe(3);
    expect(view.rows.map((r) => (r.kind === 'fold' ? `fold ${r.from} (${r.turns.length})` : `turn ${r.turn.index}`))).toEqual(['fold 0 (1)', 'turn 1', 'turn 2', 'turn 3']);
    view.unfold(0);
    expect(view.rows.map((r) => r.kind)).toEqual(['turn', 'turn', 'turn', 'turn']);
    // Another coalition folds again, and shows its own replay: every fix re-asks the planner too.
    view.showRequest(1, true);
    expect([...view.requests]).toEqual([1]);
    view.choose('all');
    expect(view.open.size).toBe(0);
    expect(view.requests.size).toBe(0);
    expect(view.turns[0].fixed).toBe(true);
    expect(view.turns[0].inputChanged).toBe(true);
    expect(view.changed).toBe(4);
    // The planner's fix alone: it is re-asked and answers the same, so nothing after it changes.
    view.choose(`alone:${steps[0]}`);
    expect(view.turns.map((t) => [t.fixed, t.outputChanged, t.inputChanged])).toEqual([
      [true, false, true],
      [false, false, false],
      [false, false, false],
      [false, false, false],
    ]);
    expect(view.rows.map((r) => r.kind)).toEqual(['turn', 'fold']);
    // The calculator's alone is the repair.
    view.choose(`alone:${steps[1]}`);
    expect(view.turns.map((t) => t.outputChanged)).toEqual([false, true, true, true]);
  });

  it('says why a recording cannot be read rather than showing an empty comparison', () => {
    const view = new FactualReplayed(() => ({ recording: { turns: [] }, result, steps }));
    expect(view.read).toEqual({ problem: 'recording.messages: absent: the recording was made before contexts were kept by reference' });
    expect(view.turns).toEqual([]);
  });

  it('folds only runs of unchanged turns, and shows a turn whose replay was not kept', () => {
    const turn = (index: number, changed: boolean, kept = true) => ({ index, step: index, name: 'n', agent: 'a', kind: 'model' as const, fixed: false, recorded: { text: '', toolCalls: [] }, replayed: kept ? { text: '', toolCalls: [] } : null, via: kept ? ('recorded' as const) : null, outputChanged: changed, inputChanged: false, request: null });
    const rows = factualRows([turn(0, false), turn(1, false), turn(2, true), turn(3, false, false), turn(4, false)], new Set());
    expect(rows.map((r) => (r.kind === 'fold' ? `fold ${r.turns.map((t) => t.index).join(',')}` : `turn ${r.turn.index}`))).toEqual(['fold 0,1', 'turn 2', 'turn 3', 'fold 4']);
  });

  it('writes requests and answers as lines to diff', () => {
    expect(requestText([{ role: 'system', content: 'You are X.' }, { role: 'assistant', content: '', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'python', arguments: '{"code":"1"}' } }] }, { role: 'tool', tool_call_id: 'c1', content: '1' }])).toBe(
      'system: You are X.\nassistant: \n  call c1: python({"code":"1"})\ntool (answers c1): 1\n',
    );
    expect(answerText({ text: '', toolCalls: [{ name: 'python', arguments: '{}' }] })).toBe('call python({})');
    expect(answerText({ text: 'Done.', toolCalls: [] })).toBe('Done.');
  });
});

import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../engine/settings.ts';
import type { AnalysisSettings } from '../engine/types.ts';
import { readLangfuse } from '../formats/importers/langfuse.ts';
import { readWhoWhen } from '../formats/importers/whowhen.ts';
import { buildReplay, compareReplay, replayRunOf, type ReplayOptions } from './index.ts';
import { analyzeWithModel } from './testing/model-loop.ts';
import { langfuseExport, langfuseWithToolCalls, scriptedModel, scriptedToolModel, WHOWHEN_LOG } from './testing/runs.ts';

const SETTINGS: AnalysisSettings = { ...DEFAULT_SETTINGS, method: 'exact', mode: 'recorded', models: { default: 'fake-model' } };
const STUB = `export default { python: (a) => { const code = typeof a === 'string' ? a : a.code; const m = /print\\((\\d+) \\* (\\d+)\\)/.exec(code); return 'exitcode: 0 (execution succeeded)\\nCode output: ' + (m ? m[1] * m[2] : '?'); } };`;
const TOOLS = { file: { fileName: 'tools.js', source: STUB }, names: new Set(['python']) };

function replayed(file: unknown, options: Partial<ReplayOptions> = {}, model = scriptedModel) {
  const run = readLangfuse(JSON.stringify(file)).runs[0];
  const def = buildReplay([run], { players: 'steps', fixes: [], outcome: { kind: 'expect', text: '42' }, origin: 'test', ...options });
  const { result } = analyzeWithModel(def.source, def.cases[0], SETTINGS, model);
  // What a session keeps: the case input as JSON.
  const stored = JSON.parse(JSON.stringify(def.cases[0].inputs!.recording)) as unknown;
  return { def, result, stored };
}

describe('the record beside a coalition replayed', () => {
  it('with every fix: the calculator answers anew, the tool runs the new code, the reporter sees both', () => {
    const { def, result, stored } = replayed(langfuseExport(), { tools: TOOLS });
    const read = replayRunOf(stored);
    if (!('run' in read)) throw new Error(read.problem);
    const all = new Set(def.steps.map((_, k) => k));
    const turns = compareReplay(read.run, def.steps, result.fixedOutputs!, all);
    expect(turns.map((t) => [t.agent, t.fixed, t.via, t.outputChanged])).toEqual([
      ['Planner', true, 'model', false],
      ['Calculator', true, 'model', true],
      // A stubbed tool is a player of its own (its fix is the stub).
      ['python', true, 'stub', true],
      ['Reporter', true, 'model', true],
    ]);
    const calc = turns[1];
    expect(calc.recorded.text).toBe('print(6 * 8)  # 6 times 7');
    expect(calc.replayed?.text).toBe('print(6 * 7)  # 6 times 7');
    // The repair's request: the recorded context, the recorded answer and the note, as the rule sent it.
    expect(calc.inputChanged).toBe(true);
    const asked = calc.request!();
    expect(asked.replayed?.at(-2)).toEqual({ role: 'assistant', content: 'print(6 * 8)  # 6 times 7' });
    expect(asked.replayed?.at(-1)?.content).toMatch(/may be wrong/);
    expect(asked.recorded).toHaveLength(3);
    // The tool turn ran the replayed code: its call changed with its result.
    expect(turns[2].inputChanged).toBe(true);
    expect(turns[2].replayed?.call).toEqual({ name: 'python', arguments: 'print(6 * 7)  # 6 times 7' });
    expect(turns[2].replayed?.text).toContain('Code output: 42');
    // The reporter's request quotes the replayed code and result where the record quoted the old ones.
    const reporter = turns[3].request!().replayed!.map((m) => m.content);
    expect(reporter).toContain('print(6 * 7)  # 6 times 7');
    expect(reporter).toContain('exitcode: 0 (execution succeeded)\nCode output: 42');
    expect(turns[3].replayed?.text).toBe('The final answer is 42. TERMINATE');
  });

  it('the factual outputs, as the coalition with nobody fixed: every turn and request as recorded', () => {
    const { def, result, stored } = replayed(langfuseExport(), { tools: TOOLS });
    const read = replayRunOf(stored);
    if (!('run' in read)) throw new Error(read.problem);
    const none = compareReplay(read.run, def.steps, result.factualOutputs!, new Set());
    expect(none.every((t) => !t.outputChanged && !t.inputChanged && t.via === 'recorded')).toBe(true);
    // Kept as recorded: no request is rebuilt for them.
    expect(none.every((t) => t.request === null)).toBe(true);
  });

  it('a call the replayed model no longer makes: the tool turn is absent, without a call', () => {
    const answerInText = (request: Parameters<typeof scriptedToolModel>[0]) => (/Calculator/.test(request.messages[0].content) ? { text: '42', finish: 'stop', usage: { input: 1, output: 1 } } : scriptedToolModel(request));
    const { def, result, stored } = replayed(langfuseWithToolCalls(), {}, answerInText);
    const read = replayRunOf(stored);
    if (!('run' in read)) throw new Error(read.problem);
    const turns = compareReplay(read.run, def.steps, result.fixedOutputs!, new Set(def.steps.map((_, k) => k)));
    const tool = turns.find((t) => t.kind === 'tool')!;
    expect(tool.via).toBe('absent');
    expect(tool.replayed?.call).toBeUndefined();
    expect(tool.inputChanged && tool.outputChanged).toBe(true);
    const calc = turns.find((t) => t.agent === 'Calculator')!;
    expect(calc.recorded.toolCalls.map((c) => c.name)).toEqual(['python']);
    expect(calc.replayed?.toolCalls).toEqual([]);
  });

  it('a step output the analysis did not keep leaves its turns unknown, not unchanged', () => {
    const { def, result, stored } = replayed(langfuseExport(), { tools: TOOLS });
    const read = replayRunOf(stored);
    if (!('run' in read)) throw new Error(read.problem);
    const calcStep = def.steps.find((s) => /Calculator/.test(s))!;
    const cut = { ...result.fixedOutputs!, [calcStep]: '[output cut: more than 10 characters of JSON; results keep smaller outputs only]' };
    const turns = compareReplay(read.run, def.steps, cut, new Set(def.steps.map((_, k) => k)));
    const calc = turns.find((t) => t.agent === 'Calculator')!;
    expect(calc.replayed).toBeNull();
    expect(calc.via).toBeNull();
    // Later turns still compare: the reporter's request is rebuilt from the outputs that were kept.
    expect(turns.at(-1)!.replayed?.text).toBe('The final answer is 42. TERMINATE');
  });

  it('a transcript run (Who&When): contexts are the transcript, rebuilt with the replayed words', () => {
    const run = readWhoWhen(JSON.stringify(WHOWHEN_LOG), 'algorithm/7.json').runs[0];
    const def = buildReplay([run], { players: 'steps', fixes: [], outcome: null, origin: 'test' });
    const { result } = analyzeWithModel(def.source, def.cases[0], SETTINGS, scriptedModel);
    const read = replayRunOf(JSON.parse(JSON.stringify(def.cases[0].inputs!.recording)));
    if (!('run' in read)) throw new Error(read.problem);
    const turns = compareReplay(read.run, def.steps, result.fixedOutputs!, new Set(def.steps.map((_, k) => k)));
    const reporter = turns.at(-1)!;
    const asked = reporter.request!();
    expect(asked.recorded.some((m) => m.content === 'Calculator: print(6 * 8)  # 6 times 7')).toBe(true);
    expect(asked.replayed?.some((m) => m.content === 'Calculator: print(6 * 7)  # 6 times 7')).toBe(true);
  });
});

describe('an action fix', () => {
  it('sends no request: the turn changed its answer, not its request', () => {
    const { def, result, stored } = replayed(langfuseExport(), { tools: TOOLS, fixes: [{ turn: 'Calculator', fix: 'action:print(6 * 7)' }] });
    const read = replayRunOf(stored);
    if (!('run' in read)) throw new Error(read.problem);
    const calc = compareReplay(read.run, def.steps, result.fixedOutputs!, new Set(def.steps.map((_, k) => k))).find((t) => t.agent === 'Calculator')!;
    expect(calc.via).toBe('action');
    expect([calc.outputChanged, calc.inputChanged, calc.request]).toEqual([true, false, null]);
  });
});

describe('a stored recording read back', () => {
  const { stored } = replayed(langfuseExport(), { tools: TOOLS });

  it('gives back the run as it was embedded', () => {
    const read = replayRunOf(stored);
    expect(read).toEqual({ run: stored });
  });

  it('names where a hostile or old recording goes wrong', () => {
    const edit = (f: (r: Record<string, any>) => void) => {
      const copy = JSON.parse(JSON.stringify(stored)) as Record<string, any>;
      f(copy);
      return replayRunOf(copy);
    };
    expect(edit((r) => delete r.messages)).toEqual({ problem: 'recording.messages: absent: the recording was made before contexts were kept by reference' });
    expect(edit((r) => (r.turns[1].context.from = 5))).toEqual({ problem: 'recording.turns[1].context: not a context of an earlier turn' });
    expect(edit((r) => (r.messages[0].quotes = [{ start: 0, end: 1e9, from: 0 }]))).toMatchObject({ problem: expect.stringMatching(/^recording\.messages\[0\]\.quotes\[0\]\.end: not a number/) });
    expect(edit((r) => (r.turns[0].fixes = [{ kind: 'eval' }]))).toEqual({ problem: 'recording.turns[0].fixes[0].kind: not a fix kind' });
    expect(edit((r) => (r.turns[2].call = undefined))).toEqual({ problem: 'recording.turns[2].call: a tool turn without its call' });
    expect(edit((r) => (r.messages[1].role = '__proto__'))).toMatchObject({ problem: expect.stringMatching(/^recording\.messages\[1\]\.role/) });
    expect(replayRunOf('not a run')).toEqual({ problem: 'recording: not a recorded run' });
  });
});

import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../engine/settings.ts';
import type { AnalysisSettings } from '../engine/types.ts';
import type { ChatRequest } from '../engine/model-call.ts';
import { readWhoWhen } from '../formats/importers/whowhen.ts';
import { readLangfuse } from '../formats/importers/langfuse.ts';
import { buildReplay, recordedContext, turnLinks, type ReplayOptions } from './index.ts';
import { analyzeWithModel } from './testing/model-loop.ts';
import { langfuseExport, langfuseWithToolCalls, scriptedModel, scriptedToolModel, WHOWHEN_LOG } from './testing/runs.ts';

const SETTINGS: AnalysisSettings = { ...DEFAULT_SETTINGS, method: 'exact', mode: 'recorded', models: { default: 'fake-model' } };
const STUB = `export default {
  Computer_terminal: (code) => { const m = /print\\((\\d+) \\* (\\d+)\\)/.exec(code); return 'exitcode: 0 (execution succeeded)\\nCode output: ' + (m ? m[1] * m[2] : '?'); },
  python: (code) => { const m = /print\\((\\d+) \\* (\\d+)\\)/.exec(code); return 'exitcode: 0 (execution succeeded)\\nCode output: ' + (m ? m[1] * m[2] : '?'); },
};`;
const TOOLS = { file: { fileName: 'tools.js', source: STUB }, names: new Set(['Computer_terminal', 'python']) };

function whowhenRun() {
  return readWhoWhen(JSON.stringify(WHOWHEN_LOG), 'algorithm/7.json').runs[0];
}

function replay(options: Partial<ReplayOptions> = {}, runs = [whowhenRun()]) {
  return buildReplay(runs, { players: 'steps', fixes: [], outcome: null, origin: 'test', ...options });
}

describe('a Who&When run replayed', () => {
  it('has a turn per agent entry (the terminal a tool turn), each quoting every earlier turn', () => {
    const def = replay();
    const turns = def.runs[0].turns;
    expect(turns.map((t) => [t.step, t.agent, t.kind])).toEqual([
      [1, 'Planner', 'model'],
      [2, 'Calculator', 'model'],
      [3, 'Computer_terminal', 'tool'],
      [4, 'Reporter', 'model'],
    ]);
    expect(turnLinks(def.runs[0]).map((l) => l.dependsOn)).toEqual([[], [0], [1], [0, 1, 2]]);
    // The human's question is in the transcript but is no turn of anyone's.
    expect(recordedContext(turns[0], def.runs[0]).map((m) => m.content)).toEqual([expect.stringContaining('You are Planner'), 'human: What is 6 times 7?']);
    expect(recordedContext(turns[3], def.runs[0]).map((m) => m.role)).toEqual(['system', 'user', 'user', 'user', 'user']);
    expect(def.steps).toEqual(['1 Planner', '2 Calculator', '4 Reporter']);
  });

  it('ranks the planted culprit first and keeps unchanged turns as recorded', () => {
    const def = replay({ tools: TOOLS });
    expect(def.steps).toEqual(['1 Planner', '2 Calculator', '3 Computer_terminal', '4 Reporter']);
    const { result, sent } = analyzeWithModel(def.source, def.cases[0], SETTINGS, scriptedModel);
    expect(result.error).toBeUndefined();
    expect(result.vEmpty).toBe(0);
    expect(result.vAll).toBe(1);
    expect(result.shapley).toEqual({ '1 Planner': 0, '2 Calculator': 1, '3 Computer_terminal': 0, '4 Reporter': 0 });
    // Each distinct request once (the loop refuses a repeat), and the factual run sent nothing.
    const keys = new Set(sent.map((r) => JSON.stringify(r)));
    expect(keys.size).toBe(sent.length);
    expect(result.factualOutputs).toBeDefined();
  });

  it('substitutes the replayed output into later contexts', () => {
    const def = replay({ tools: TOOLS, fixes: [{ turn: '2', fix: 'action:print(6 * 7)  # fixed' }, { turn: 'Planner', fix: 'action:Plan: the Calculator multiplies 6 by 7, then the Reporter answers.' }, { turn: 'Reporter', fix: 'action:The final answer is 48. TERMINATE' }] });
    const { result, sent } = analyzeWithModel(def.source, def.cases[0], SETTINGS, scriptedModel);
    // Only the reporter is sent (its context changed when the calculator was fixed); the terminal ran the stub.
    expect(sent.every((r) => r.messages[0].content.includes('Reporter'))).toBe(true);
    const withFix = sent.find((r) => r.messages.some((m) => m.content === 'Calculator: print(6 * 7)  # fixed'));
    expect(withFix?.messages.at(-1)?.content).toBe('Computer_terminal: exitcode: 0 (execution succeeded)\nCode output: 42');
    // v(S) = 1 exactly when the calculator is fixed and the reporter is not: the reporter's action undoes the repair.
    expect(result.shapley).toEqual({ '1 Planner': 0, '2 Calculator': 0.5, '3 Computer_terminal': 0, '4 Reporter': -0.5 });
  });

  it('reuses a tool result whose call changed when there is no stub, and flags it', () => {
    const def = replay();
    const { result } = analyzeWithModel(def.source, def.cases[0], SETTINGS, scriptedModel);
    // The calculator's new code is never run: the terminal's old output misleads the reporter.
    expect(result.vAll).toBe(0);
    const fixed = result.fixedOutputs ?? {};
    expect(JSON.stringify(fixed)).toContain('"via":"reused"');
  });
});

describe('a Langfuse run replayed (recorded requests)', () => {
  it('reads each generation\'s request as its context and finds the quoted outputs', () => {
    const run = readLangfuse(JSON.stringify(langfuseExport())).runs[0];
    const def = replay({ outcome: { kind: 'expect', text: '42' }, tools: TOOLS }, [run]);
    const turns = def.runs[0].turns;
    expect(turns.map((t) => [t.agent, t.kind])).toEqual([
      ['Planner', 'model'],
      ['Calculator', 'model'],
      ['python', 'tool'],
      ['Reporter', 'model'],
    ]);
    expect(turnLinks(def.runs[0])[3]).toEqual({ dependsOn: [0, 1, 2], substitutions: 3 });
    const { result } = analyzeWithModel(def.source, def.cases[0], SETTINGS, scriptedModel);
    expect(result.vEmpty).toBe(0);
    const ranked = Object.entries(result.shapley!).sort((a, b) => b[1] - a[1]);
    expect(ranked[0][0]).toMatch(/Calculator/);
  });
});

describe('each intervention', () => {
  const run = whowhenRun;
  /** The requests a replay with these fixes sends. */
  function sentWith(fixes: { turn: string; fix: string }[], settings: AnalysisSettings = SETTINGS) {
    const def = replay({ tools: TOOLS, fixes }, [run()]);
    return { def, ...analyzeWithModel(def.source, def.cases[0], settings, scriptedModel) };
  }
  const calculatorRequests = (sent: ChatRequest[]) => sent.filter((r) => r.messages[0].content.includes('You are Calculator'));

  it('resample: the same context at temperature 1 with an addressed seed', () => {
    const { sent } = sentWith([{ turn: '2', fix: 'resample' }]);
    const calc = calculatorRequests(sent);
    expect(calc).toHaveLength(1);
    expect(calc[0].temperature).toBe(1);
    expect(typeof calc[0].seed).toBe('number');
    const def = replay();
    expect(calc[0].messages).toEqual(recordedContext(def.runs[0].turns[1], def.runs[0]));
  });

  it('context edits: drop, replace and system+= act on the recorded messages', () => {
    const { sent } = sentWith([
      { turn: '2', fix: 'context:drop=1' },
      { turn: '2', fix: 'context:replace=2:Planner: multiply 6 by 7 exactly.' },
      { turn: '2', fix: 'context:system+=Check your arithmetic.' },
    ]);
    const [calc] = calculatorRequests(sent);
    expect(calc.messages.map((m) => [m.role, m.content])).toEqual([
      ['system', expect.stringMatching(/^You are Calculator.*\nCheck your arithmetic\.$/s)],
      ['user', 'Planner: multiply 6 by 7 exactly.'],
    ]);
  });

  it('policy: another model alias and temperature', () => {
    const { sent } = sentWith([{ turn: 'Calculator', fix: 'policy:strong@0.3' }], { ...SETTINGS, models: { default: 'fake-model', strong: 'big-model' } });
    const [calc] = calculatorRequests(sent);
    expect(calc.model).toBe('big-model');
    expect(calc.temperature).toBe(0.3);
  });

  it('repair with a hint: the recorded answer, then a note saying why it may be wrong', () => {
    const { sent } = sentWith([{ turn: '2', fix: 'repair:it multiplies by 8' }]);
    const [calc] = calculatorRequests(sent);
    expect(calc.messages.slice(-2)).toEqual([
      { role: 'assistant', content: 'print(6 * 8)  # 6 times 7' },
      { role: 'user', content: 'Your answer above may be wrong: it multiplies by 8 Redo this step and give your corrected answer in full.' },
    ]);
  });

  it('observation: a tool result replaced reaches the later turns', () => {
    const { result, sent, def } = sentWith([{ turn: '3', fix: 'observation:exitcode: 0 (execution succeeded)\nCode output: 42' }]);
    expect(def.steps).toContain('3 Computer_terminal');
    expect(result.fixAlone!['3 Computer_terminal']).toBe(1);
    expect(sent.some((r) => r.messages.at(-1)!.content.endsWith('Code output: 42'))).toBe(true);
  });

  it('refuses fixes that do not fit the turn, naming it', () => {
    expect(() => replay({ fixes: [{ turn: '3', fix: 'repair' }] })).toThrow(/step 3 \("tool Computer_terminal"\) is a tool turn/);
    expect(() => replay({ fixes: [{ turn: '2', fix: 'observation:x' }] })).toThrow(/model turn/);
    expect(() => replay({ fixes: [{ turn: '9', fix: 'repair' }] })).toThrow(/no turn at step 9 \(turns are at steps 1, 2, 3, 4\)/);
    expect(() => replay({ fixes: [{ turn: '2', fix: 'context:drop=7' }] })).toThrow(/has 3 context messages/);
    expect(() => replay({ fixes: [{ turn: '2', fix: 'teleport' }] })).toThrow(/unknown fix "teleport"/);
  });
});

describe('players and outcomes', () => {
  it('agents: every turn of an agent fixed together, also when turns interleave', () => {
    const log = { ...WHOWHEN_LOG, history: [...WHOWHEN_LOG.history.slice(0, 4), { role: 'assistant', name: 'Calculator', content: 'Checked: the output above is right.' }, WHOWHEN_LOG.history[4]] };
    const run = readWhoWhen(JSON.stringify(log), 'algorithm/8.json').runs[0];
    const def = replay({ players: 'agents', tools: TOOLS }, [run]);
    expect(def.steps).toEqual(['Planner', 'Calculator', 'Computer_terminal', 'Reporter']);
    // The calculator speaks again after the terminal (a player, for its stub): the terminal's step replays that turn.
    expect(def.runs[0].interleaved).toBe(true);
    expect(def.runs[0].turns.map((t) => [t.player, t.segment])).toEqual([[0, 0], [1, 1], [2, 2], [1, 2], [3, 3]]);
    const { result } = analyzeWithModel(def.source, def.cases[0], SETTINGS, scriptedModel);
    expect(result.shapley!.Calculator).toBe(1);
  });

  it('turns: an agent message with the tool calls it made is one player', () => {
    const def = replay({ players: 'turns', tools: TOOLS });
    expect(def.steps).toEqual(['1 Planner', '2 Calculator', '4 Reporter']);
    expect(def.runs[0].turns[2].player).toBe(1);
  });

  it('a judge (llm.choose pass/fail) decides success', () => {
    const def = replay({ outcome: { kind: 'judge', rubric: 'The answer must be 6 times 7.' }, tools: TOOLS });
    const { result, sent } = analyzeWithModel(def.source, def.cases[0], SETTINGS, scriptedModel);
    expect(result.vEmpty).toBe(0);
    expect(result.shapley!['2 Calculator']).toBe(1);
    expect(sent.filter((r) => r.logprobs).every((r) => r.messages[0].content.includes('The answer must be 6 times 7.'))).toBe(true);
  });

  it('a metric file sees the replayed turns and the final answer', () => {
    const source = "export default (run) => (run.final.includes('42') && run.turns.length === 4 ? 1 : 0);";
    const def = replay({ outcome: { kind: 'metric', source, fileName: 'metric.js' }, tools: TOOLS });
    const { result } = analyzeWithModel(def.source, def.cases[0], SETTINGS, scriptedModel);
    expect(result.shapley!['2 Calculator']).toBe(1);
  });

  it('the final answer is what follows FINAL ANSWER: where a turn marks it', () => {
    const log = { ...WHOWHEN_LOG, ground_truth: 'CSI: Cyber', history: [...WHOWHEN_LOG.history.slice(0, 4), { role: 'assistant', name: 'Reporter', content: 'Shows: CSI: Cyber, Cheers.\nFINAL ANSWER: CSI Cyber\nDONE' }] };
    const run = readWhoWhen(JSON.stringify(log), 'algorithm/10.json').runs[0];
    const def = replay({ fixes: [{ turn: 'Reporter', fix: 'action:FINAL ANSWER: CSI: Cyber' }] }, [run]);
    const { result } = analyzeWithModel(def.source, def.cases[0], SETTINGS, scriptedModel);
    // "CSI: Cyber" occurs in the message, but the answer given is "CSI Cyber": a failure the action repairs.
    expect(result.vEmpty).toBe(0);
    expect(result.fixAlone!['4 Reporter']).toBe(1);
  });

  it('a regular expression on the final answer', () => {
    const def = replay({ outcome: { kind: 'expect-regex', source: 'answer is 4[0-9]\\.', flags: '' }, tools: TOOLS });
    const { result } = analyzeWithModel(def.source, def.cases[0], SETTINGS, scriptedModel);
    // 48 matches as recorded: nothing to blame.
    expect(result.failed).toBe(false);
  });

  it('refuses a run without a recorded answer when no outcome is given', () => {
    const run = readLangfuse(JSON.stringify(langfuseExport())).runs[0];
    expect(() => replay({}, [run])).toThrow(/--expect TEXT\|\/REGEX\/, --judge RUBRIC or --metric FILE\.js/);
  });

  it('escapes what the sandbox refuses in strings, so any recorded text replays', () => {
    const log = { ...WHOWHEN_LOG, history: WHOWHEN_LOG.history.map((h, i) => (i === 1 ? { ...h, content: 'Plan <!-- x --> then import("fs") and eval(1)' } : h)) };
    const run = readWhoWhen(JSON.stringify(log), 'algorithm/9.json').runs[0];
    const def = replay({ tools: TOOLS }, [run]);
    expect(def.source).not.toMatch(/<!--|-->|import\(|eval\(/);
    const { result } = analyzeWithModel(def.source, def.cases[0], SETTINGS, scriptedModel);
    expect(result.error).toBeUndefined();
    expect(result.factualOutputs!['1 Planner']).toMatchObject({ turns: { 0: { text: 'Plan <!-- x --> then import("fs") and eval(1)' } } });
  });
});

describe('tool calls as the endpoint gives them', () => {
  it('a replayed turn is sent with the recorded tools, and its new call runs the stub with the parsed arguments', () => {
    const run = readLangfuse(JSON.stringify(langfuseWithToolCalls())).runs[0];
    const stub = "export default { python: (args) => 'exitcode: 0 (execution succeeded)\\nCode output: ' + (args.code === 'print(6 * 7)' ? 42 : 48) };";
    const def = replay({ outcome: { kind: 'expect', text: '42' }, tools: { file: { fileName: 'tools.js', source: stub }, names: new Set(['python']) } }, [run]);
    const turns = def.runs[0].turns;
    expect(turns[1].toolCalls).toEqual([{ id: 'c1', name: 'python', arguments: '{"code":"print(6 * 8)"}' }]);
    expect(turns[2]).toMatchObject({ kind: 'tool', name: 'tool python', caller: 1, callIndex: 0, call: { id: 'c1', name: 'python', arguments: '{"code":"print(6 * 8)"}' } });
    const { result, sent } = analyzeWithModel(def.source, def.cases[0], SETTINGS, scriptedToolModel);
    const calc = sent.find((r) => r.messages[0].content.includes('Calculator'));
    expect(calc?.tools).toEqual([{ type: 'function', function: { name: 'python', parameters: { type: 'object' } } }]);
    expect(result.vEmpty).toBe(0);
    const ranked = Object.entries(result.shapley!).sort((a, b) => b[1] - a[1]);
    expect(ranked[0]).toEqual([expect.stringMatching(/Calculator/), 1]);
  });
});

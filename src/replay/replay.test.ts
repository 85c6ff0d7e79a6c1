import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../engine/settings.ts';
import type { AnalysisSettings } from '../engine/types.ts';
import { readWhoWhen } from '../formats/importers/whowhen.ts';
import { readLangfuse } from '../formats/importers/langfuse.ts';
import { buildReplay, type ReplayOptions } from './index.ts';
import { analyzeWithModel } from './testing/model-loop.ts';
import { langfuseExport, scriptedModel, WHOWHEN_LOG } from './testing/runs.ts';

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
    expect(turns.map((t) => t.dependsOn)).toEqual([[], [0], [1], [0, 1, 2]]);
    // The human's question is in the transcript but is no turn of anyone's.
    expect(turns[0].context.map((m) => m.content)).toEqual([expect.stringContaining('You are Planner'), 'human: What is 6 times 7?']);
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
    expect(turns[3].dependsOn).toEqual([0, 1, 2]);
    expect(turns[3].substitutions).toHaveLength(3);
    const { result } = analyzeWithModel(def.source, def.cases[0], SETTINGS, scriptedModel);
    expect(result.vEmpty).toBe(0);
    const ranked = Object.entries(result.shapley!).sort((a, b) => b[1] - a[1]);
    expect(ranked[0][0]).toMatch(/Calculator/);
  });
});

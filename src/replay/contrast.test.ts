import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../engine/settings.ts';
import type { AnalysisSettings } from '../engine/types.ts';
import { readWhoWhen } from '../formats/importers/whowhen.ts';
import { buildReplay, contrastReport, contrastStudy } from './index.ts';
import { analyzeWithModel } from './testing/model-loop.ts';
import { scriptedModel, WHOWHEN_LOG } from './testing/runs.ts';

const SETTINGS: AnalysisSettings = { ...DEFAULT_SETTINGS, method: 'exact', mode: 'recorded', models: { default: 'fake-model' } };
const STUB = "export default { Computer_terminal: (code) => { const m = /print\\((\\d+) \\* (\\d+)\\)/.exec(code); return 'exitcode: 0 (execution succeeded)\\nCode output: ' + (m ? m[1] * m[2] : '?'); } };";

describe('single-step contrast and point of commitment', () => {
  // 35 replays per arm: the fewest for which 35 failures of 35 put the Wilson lower bound (0.9011) above 0.9.
  const N = 35;
  const run = readWhoWhen(JSON.stringify(WHOWHEN_LOG), 'algorithm/7.json').runs[0];
  const def = buildReplay([run], { players: 'steps', fixes: [], outcome: null, origin: 'test', tools: { file: { fileName: 'tools.js', source: STUB }, names: new Set(['Computer_terminal']) } });
  const study = contrastStudy(def.parts, def.runs, N);
  const sent: unknown[] = [];
  const results = study.cases.map((c) => {
    const r = analyzeWithModel(study.source, c, SETTINGS, scriptedModel);
    sent.push(...r.sent);
    return r.result;
  });
  const report = contrastReport(def.runs[0], study, results);

  it('replays each arm N times, each with its own seed', () => {
    // Three model turns: arms from each of them and one past the end.
    expect(study.cases).toHaveLength(4 * N);
    expect(new Set(study.cases.map((c) => c.seed)).size).toBe(N);
    expect(report.errors).toBe(0);
  });

  it('finds that redoing the calculator alone changes the outcome, and nothing else does', () => {
    expect(report.contrast.map((r) => [r.agent, r.regenerated.failures, r.kept.failures, r.difference])).toEqual([
      ['Planner', 0, 0, 0],
      ['Calculator', 0, N, -1],
      ['Reporter', N, N, 0],
    ]);
    const calc = report.contrast[1];
    // Newcombe's interval for 0/35 - 35/35 and Wilson's for 35/35, computed with python3 from the same formulas: [-1, -0.860133], [0.901099, 1].
    expect(calc.ci[0]).toBe(-1);
    expect(calc.ci[1]).toBeCloseTo(-0.860133, 5);
    expect(calc.kept.ci[0]).toBeCloseTo(0.901099, 5);
  });

  it('puts the point of commitment at the calculator: its recorded prefix reproduces the failure', () => {
    expect(report.commitment).toEqual({ index: 1, step: 2, name: 'Calculator', agent: 'Calculator' });
  });
});

import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../engine/settings.ts';
import { readWhoWhen } from '../../formats/importers/whowhen.ts';
import { buildReplay } from '../../replay/index.ts';
import { analyzeWithModel } from '../../replay/testing/model-loop.ts';
import { scriptedModel, WHOWHEN_LOG } from '../../replay/testing/runs.ts';
import { reusedToolsNote, reusedToolTurns } from './reused-tools.ts';

describe('reused tool turns', () => {
  const run = readWhoWhen(JSON.stringify(WHOWHEN_LOG), 'algorithm/7.json').runs[0];
  const settings = { ...DEFAULT_SETTINGS, method: 'exact' as const, models: { default: 'scripted' } };

  it('flag the terminal that reused its record after the calculator changed its code', () => {
    const def = buildReplay([run], { players: 'steps', fixes: [], outcome: null, origin: 'test' });
    const { result } = analyzeWithModel(def.source, def.cases[0], settings, scriptedModel);
    // Turn 2 is the terminal (turns: planner 0, calculator 1, terminal 2, reporter 3).
    expect(def.runs[0].turns[2].kind).toBe('tool');
    expect(reusedToolTurns(result)).toEqual([2]);
  });

  it('flag none when a stub runs the changed call', () => {
    const tools = { file: { fileName: 't.js', source: 'export default { Computer_terminal: (code) => "Code output: 42" };' }, names: new Set(['Computer_terminal']) };
    const def = buildReplay([run], { players: 'steps', fixes: [], outcome: null, origin: 'test', tools });
    const { result } = analyzeWithModel(def.source, def.cases[0], settings, scriptedModel);
    expect(reusedToolTurns(result)).toEqual([]);
    expect(reusedToolTurns(undefined)).toEqual([]);
  });

  it('make the Batch view say so, counting the runs flagged', () => {
    const def = buildReplay([run], { players: 'steps', fixes: [], outcome: null, origin: 'test' });
    const { result } = analyzeWithModel(def.source, def.cases[0], settings, scriptedModel);
    expect(reusedToolsNote([result])).toMatch(/^Flagged: The run reused a recorded tool result for a call that changed \(no tool stub ran it\)/);
    expect(reusedToolsNote([result, undefined])).toMatch(/^Flagged: The run reused/);
    const clean = { factualOutputs: {}, fixedOutputs: {} };
    expect(reusedToolsNote([result, clean, result])).toMatch(/^Flagged: 2 of 3 runs reused/);
    expect(reusedToolsNote([clean, undefined])).toBeNull();
  });
});

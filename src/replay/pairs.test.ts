import { describe, expect, it } from 'vitest';
import { isAnalysedFailure } from '../engine/case-result.ts';
import { DEFAULT_SETTINGS } from '../engine/settings.ts';
import { readWhoWhen } from '../formats/importers/whowhen.ts';
import { buildReplay, recordedContext } from './index.ts';
import { pairRunOf, replayPairs } from './pairs.ts';
import { analyzeWithModel } from './testing/model-loop.ts';
import { scriptedModel, WHOWHEN_LOG } from './testing/runs.ts';

const STUB = `export default {
  Computer_terminal: (code) => { const m = /print\\((\\d+) \\* (\\d+)\\)/.exec(code); return 'exitcode: 0 (execution succeeded)\\nCode output: ' + (m ? m[1] * m[2] : '?'); },
};`;

function whowhenReplay() {
  const run = readWhoWhen(JSON.stringify(WHOWHEN_LOG), 'algorithm/7.json').runs[0];
  return buildReplay([run], { players: 'steps', fixes: [], outcome: null, origin: 'test', tools: { file: { fileName: 'tools.js', source: STUB }, names: new Set(['Computer_terminal']) } });
}

describe('the replay pair rule', () => {
  it('reads a case\'s recording input as the run it embeds, giving each model turn its recorded context', () => {
    const def = whowhenReplay();
    const run = pairRunOf(def.cases[0].inputs.recording);
    expect(run).not.toBeNull();
    const plan = def.runs[0];
    expect(run!.turns.map((t) => [t.index, t.kind, t.player, t.output])).toEqual(plan.turns.map((t) => [t.index, t.kind, t.player, t.output]));
    for (const [k, turn] of plan.turns.entries()) if (turn.kind === 'model') expect(recordedContext(run!.turns[k], run!)).toEqual(recordedContext(turn, plan));
  });

  it('takes anything else for no replayed run', () => {
    const plan = whowhenReplay().runs[0];
    expect(pairRunOf('a recording')).toBeNull();
    expect(pairRunOf({ ...plan, task: 7 })).toBeNull();
    expect(pairRunOf({ ...plan, turns: [{ ...plan.turns[0], context: [{ role: 'robot', content: 'x' }] }] })).toBeNull();
    expect(pairRunOf({ ...plan, turns: [{ ...plan.turns[0], transcript: 'all' }] })).toBeNull();
    expect(pairRunOf({ ...plan, transcript: [{ speaker: 'human', text: 1, turn: null }] })).toBeNull();
  });

  it('pairs the repaired culprit of a transcript-only run: the transcript before it as prompt, 48 rejected, 42 chosen', () => {
    const def = whowhenReplay();
    const settings = { ...DEFAULT_SETTINGS, method: 'exact' as const, models: { default: 'fake-model' }, repairs: { size: 3 } };
    const { result } = analyzeWithModel(def.source, def.cases[0], settings, scriptedModel);
    if (!isAnalysedFailure(result)) throw new Error('expected an analysed failure');
    expect(replayPairs({ ticket: 'not a replay' }, result, () => null)).toBeNull();
    const pairs = replayPairs(def.cases[0].inputs, result, (step) => `fix of ${step}`);
    const calculator = def.steps.find((s) => /Calculator/.test(s))!;
    expect(pairs).toEqual([
      {
        prompt: recordedContext(def.runs[0].turns[1], def.runs[0]),
        chosen: 'print(6 * 7)  # 6 times 7',
        rejected: 'print(6 * 8)  # 6 times 7',
        case: def.cases[0].id,
        step: calculator,
        fix: `fix of ${calculator}`,
        before: 0,
        after: 1,
        shapley: result.shapley[calculator],
      },
    ]);
    // Who&When records no requests: the prompt is the transcript before the turn, as the agent saw it.
    expect(def.runs[0].turns[1].transcript).toBeDefined();
    expect((pairs![0].prompt as { content: string }[])[0].content).toMatch(/^You are Calculator/);
    // Without the repaired run's outputs there is nothing to pair.
    expect(replayPairs(def.cases[0].inputs, { ...result, repairedOutputs: undefined }, () => null)).toEqual([]);
  });
});

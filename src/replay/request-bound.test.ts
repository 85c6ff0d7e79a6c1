import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../engine/settings.ts';
import type { AnalysisSettings } from '../engine/types.ts';
import { readWhoWhen } from '../formats/importers/whowhen.ts';
import { buildReplay, replayOutcomeKind, replayRequestBound } from './index.ts';
import { analyzeWithModel } from './testing/model-loop.ts';
import { scriptedModel, WHOWHEN_LOG } from './testing/runs.ts';

const SETTINGS: AnalysisSettings = { ...DEFAULT_SETTINGS, method: 'exact', mode: 'recorded', models: { default: 'fake-model' } };
const run = () => readWhoWhen(JSON.stringify(WHOWHEN_LOG), 'algorithm/7.json').runs[0];

describe('the most requests a replay can send', () => {
  it('is coalitions x model turns (the recorded coalition asks nothing), an upper bound of what the analysis sends', () => {
    const def = buildReplay([run()], { players: 'steps', fixes: [], outcome: null, origin: 'test' });
    // Three players (Planner, Calculator, Reporter: each a model turn with repair): 8 coalitions, 7 that ask, 3 turns each.
    const bound = replayRequestBound(def.runs, def.steps.length, SETTINGS, replayOutcomeKind(def.source)!);
    expect(bound).toEqual({ most: 7 * 3, upper: true });
    const { sent } = analyzeWithModel(def.source, def.cases[0], SETTINGS, scriptedModel);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.length).toBeLessThanOrEqual(bound.most);
  });

  it('counts the judge in each coalition and world, and is exact for one model turn judged by text', () => {
    const def = buildReplay([run()], { players: 'steps', fixes: [], outcome: { kind: 'judge', rubric: 'says 42' }, origin: 'test' });
    expect(replayOutcomeKind(def.source)).toBe('judge');
    const prior = { ...SETTINGS, mode: 'prior' as const, worlds: 4 };
    // 4 worlds x (7 coalitions x 3 turns + 8 judged coalitions) + the judge of the factual run in its own world.
    expect(replayRequestBound(def.runs, 3, prior, 'judge')).toEqual({ most: 4 * (21 + 8) + 1, upper: true });
    const one = { ...def.runs[0], turns: def.runs[0].turns.filter((t) => t.step === 2), players: ['2 Calculator'] };
    expect(replayRequestBound([one], 1, SETTINGS, 'expect')).toEqual({ most: 1, upper: false });
  });

  it('under Monte Carlo, no more coalitions than the sampling cap allows, and always an upper bound', () => {
    const mc = { ...SETTINGS, method: 'mc' as const, maxPermutations: 2 };
    const def = buildReplay([run()], { players: 'steps', fixes: [], outcome: null, origin: 'test' });
    // 2 permutations x (3 - 1) + 2 = 6 coalitions at most (of 8), 5 that ask.
    expect(replayRequestBound(def.runs, 3, mc, 'expect')).toEqual({ most: 5 * 3, upper: true });
  });

  it('reads no outcome from a definition that is not a replay', () => {
    expect(replayOutcomeKind('export default { steps: [] };')).toBeNull();
  });
});

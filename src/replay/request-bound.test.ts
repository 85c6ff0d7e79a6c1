import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../engine/settings.ts';
import type { AnalysisSettings } from '../engine/types.ts';
import { readWhoWhen } from '../formats/importers/whowhen.ts';
import { buildReplay, replayOutcomeKind, replayRequestBound, turnLinks, type BoundRun, type ReplayRunData } from './index.ts';
import { analyzeWithModel } from './testing/model-loop.ts';
import { scriptedModel, WHOWHEN_LOG } from './testing/runs.ts';

const SETTINGS: AnalysisSettings = { ...DEFAULT_SETTINGS, method: 'exact', mode: 'recorded', models: { default: 'fake-model' } };
const run = () => readWhoWhen(JSON.stringify(WHOWHEN_LOG), 'algorithm/7.json').runs[0];

/** A plan as the bound reads it: each turn with the turns it quotes. */
function bounded(plan: ReplayRunData): BoundRun {
  const links = turnLinks(plan);
  return { players: plan.players, turns: plan.turns.map((t) => ({ kind: t.kind, player: t.player, dependsOn: links[t.index].dependsOn })) };
}

describe('the most requests a replay can send', () => {
  it('per model turn, the combinations of the players that reach it, less the recorded one: an upper bound of what the analysis sends', () => {
    const def = buildReplay([run()], { players: 'steps', fixes: [], outcome: null, origin: 'test' });
    // Planner (reached by itself), Calculator (Planner, Calculator), terminal (a tool turn), Reporter (all three): 1 + 3 + 7.
    expect(def.runs[0].turns.map((t) => t.kind)).toEqual(['model', 'model', 'tool', 'model']);
    const bound = replayRequestBound([bounded(def.runs[0])], def.steps.length, SETTINGS, replayOutcomeKind(def.source)!);
    expect(bound).toEqual({ most: 1 + 3 + 7, upper: true });
    const { sent } = analyzeWithModel(def.source, def.cases[0], SETTINGS, scriptedModel);
    expect(sent.length).toBeGreaterThan(0);
    expect(sent.length).toBeLessThanOrEqual(bound.most);
  });

  it('counts each world, and the judge once per distinct replay (and the factual run in the prior mode)', () => {
    const def = buildReplay([run()], { players: 'steps', fixes: [], outcome: { kind: 'judge', rubric: 'says 42' }, origin: 'test' });
    expect(replayOutcomeKind(def.source)).toBe('judge');
    const prior = { ...SETTINGS, mode: 'prior' as const, worlds: 4 };
    expect(replayRequestBound([bounded(def.runs[0])], 3, prior, 'judge')).toEqual({ most: 4 * (11 + 8) + 1, upper: true });
    const { sent } = analyzeWithModel(def.source, def.cases[0], { ...SETTINGS, mode: 'recorded' }, scriptedModel);
    expect(sent.length).toBeLessThanOrEqual(replayRequestBound([bounded(def.runs[0])], 3, SETTINGS, 'judge').most);
  });

  it('is exact for one model turn of one player', () => {
    const one: BoundRun = { players: ['2 Calculator'], turns: [{ kind: 'model', player: 0, dependsOn: [] }] };
    expect(replayRequestBound([one], 1, SETTINGS, 'expect')).toEqual({ most: 1, upper: false });
  });

  it('under Monte Carlo, no more than the coalitions the sampling cap allows, and always an upper bound', () => {
    const def = buildReplay([run()], { players: 'steps', fixes: [], outcome: null, origin: 'test' });
    const mc = { ...SETTINGS, method: 'mc' as const, maxPermutations: 1 };
    // 1 permutation x (3 - 1) + 2 = 4 coalitions at most: the Reporter's 7 combinations become 3.
    expect(replayRequestBound([bounded(def.runs[0])], 3, mc, 'expect')).toEqual({ most: 1 + 3 + 3, upper: true });
  });

  it('takes every player as reaching a turn whose links do not point back', () => {
    const odd: BoundRun = { players: ['a', 'b'], turns: [{ kind: 'model', player: 0, dependsOn: [] }, { kind: 'model', player: -1, dependsOn: [2] }, { kind: 'model', player: 1, dependsOn: [] }] };
    expect(replayRequestBound([odd], 2, SETTINGS, 'expect').most).toBe(1 + 3 + 1);
  });

  it('reads no outcome from a definition that is not a replay', () => {
    expect(replayOutcomeKind('export default { steps: [] };')).toBeNull();
  });
});

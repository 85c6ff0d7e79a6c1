import { describe, expect, it } from 'vitest';
import { readWhoWhen } from '../../formats/importers/whowhen.ts';
import { buildReplay } from '../../replay/index.ts';
import { WHOWHEN_LOG } from '../../replay/testing/runs.ts';
import type { CaseResult } from '../../engine/types.ts';
import { rankPlayers } from './rank-players.ts';
import { recordingOf } from './recording-of.ts';

const definition = buildReplay([readWhoWhen(JSON.stringify(WHOWHEN_LOG), 'algorithm/7.json').runs[0]], { players: 'steps', fixes: [], outcome: null, origin: 'test' });

describe('the Replay view\'s players', () => {
  it('reads the recording a replay case embeds, and nothing else', () => {
    const view = recordingOf(definition.cases[0])!;
    expect(view.id).toBe('algorithm/7');
    expect(view.turns.map((t) => [t.step, t.player, t.fixes])).toEqual([[1, 0, ['repair']], [2, 1, ['repair']], [3, -1, []], [4, 2, ['repair']]]);
    expect(recordingOf({ id: 'c', inputs: { question: 'x' } })).toBeNull();
    expect(recordingOf({ id: 'c', inputs: { recording: { ...definition.runs[0], turns: [{ index: 'zero' }] } } })).toBeNull();
    expect(recordingOf(undefined)).toBeNull();
  });

  it('names the run by its recorded name (the view\'s title), not its id', async () => {
    const { readRuntape } = await import('../../formats/importers/runtape.ts');
    const { runtapeToolRun } = await import('../../replay/testing/runs.ts');
    const replay = buildReplay([readRuntape(runtapeToolRun()).runs[0]], { players: 'steps', fixes: [], outcome: { kind: 'expect', text: '210' }, origin: 'test' });
    expect(recordingOf(replay.cases[0])).toMatchObject({ id: 'refund-1', name: 'refund-agent' });
    expect(recordingOf(definition.cases[0])?.name).toBe('Who&When Hand-Crafted algorithm/7');
    // A recording embedded before names were kept is titled by its id.
    const { name: _, ...older } = replay.runs[0];
    expect(recordingOf({ id: 'c', inputs: { recording: older } })?.name).toBeUndefined();
  });

  it('ranks the players by Shapley value with their turns, ties in the definition\'s order', () => {
    const view = recordingOf(definition.cases[0])!;
    const steps = definition.steps;
    const result = { shapley: { [steps[0]]: 0, [steps[1]]: 1, [steps[2]]: 0 } } as unknown as CaseResult;
    const rows = rankPlayers(view, steps, result);
    expect(rows.map((r) => [r.rank, r.player, r.value, r.turns.map((t) => t.step)])).toEqual([
      [1, '2 Calculator', 1, [2]],
      [2, '1 Planner', 0, [1]],
      [3, '4 Reporter', 0, [4]],
    ]);
    expect(rankPlayers(view, steps, undefined).map((r) => [r.rank, r.player])).toEqual([[null, '1 Planner'], [null, '2 Calculator'], [null, '4 Reporter']]);
  });
});

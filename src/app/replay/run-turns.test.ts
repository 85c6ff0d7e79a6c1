import { describe, expect, it } from 'vitest';
import { readWhoWhen } from '../../formats/importers/whowhen.ts';
import { WHOWHEN_LOG } from '../../replay/testing/runs.ts';
import { runTurns } from './run-turns.ts';

describe('the run view\'s dependency marks', () => {
  it('name the earlier steps each turn quotes and the later ones that quote it', () => {
    const run = readWhoWhen(JSON.stringify(WHOWHEN_LOG), 'algorithm/7.json').runs[0];
    const turns = runTurns(run);
    // Step 0 is the human's question (no turn). The reporter's transcript quotes the planner, the
    // calculator and the terminal; the terminal runs the calculator's code (its caller).
    expect([...turns.keys()]).toEqual([1, 2, 3, 4]);
    expect(turns.get(4)).toMatchObject({ kind: 'model', quotes: [1, 2, 3], quotedBy: [] });
    expect(turns.get(3)).toMatchObject({ kind: 'tool', quotes: [2], quotedBy: [4] });
    expect(turns.get(1)!.quotedBy).toEqual(expect.arrayContaining([2, 4]));
  });

  it('is empty for a run with nothing to replay', () => {
    const run = readWhoWhen(JSON.stringify({ ...WHOWHEN_LOG, history: [{ role: 'human', content: 'hello there' }], mistake_agent: undefined, mistake_step: undefined }), 'a/1.json').runs[0];
    expect(runTurns(run).size).toBe(0);
  });
});

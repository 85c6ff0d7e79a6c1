import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../engine/settings.ts';
import { parseInputFile } from '../formats/detect.ts';
import { MAX_MODEL_ROUNDS } from '../pool/contract.ts';
import { buildReplay, replayRounds } from './index.ts';
import { runtapeLog } from './testing/runtape-log.ts';

describe('the model rounds a replay allows its cases', () => {
  it('cover a chain of a round per request: 1 200 runtape turns, 600 requests in a chain, are allowed 601 rounds, past the default', () => {
    const input = parseInputFile(runtapeLog(1200), 'long.jsonl');
    if (input.kind !== 'runs') throw new Error('not runs');
    const def = buildReplay(input.runs.runs, { players: 'agents', fixes: [], outcome: { kind: 'expect', text: 'refund approved' }, origin: 'test' });
    const rounds = replayRounds(def, { ...DEFAULT_SETTINGS, method: 'exact' });
    expect(rounds).toBe(601);
    expect(rounds).toBeGreaterThan(MAX_MODEL_ROUNDS);
  });
});

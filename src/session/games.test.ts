import { describe, expect, it } from 'vitest';
import { analyzeTableGame, DEFAULT_SETTINGS } from '../engine/index.ts';
import { toSessionGame, toSessionGames, toTableGame, toTableGames } from './games.ts';
import { exportSessionFile, parseSessionFile } from './session-file.ts';
import { gameSession } from './testing/sample-session.ts';

describe('game tables between the workbench and the session', () => {
  it('converts both ways, values as a Float64Array on the engine side and plain numbers in the session', () => {
    const table = { id: 'g', players: ['a', 'b'], values: Float64Array.from([0, 0.25, 0.5, 1]), range: [0, 1] as [number, number] };
    const plain = toSessionGame(table);
    expect(plain).toEqual({ id: 'g', players: ['a', 'b'], values: [0, 0.25, 0.5, 1], range: [0, 1] });
    expect(Array.isArray(plain.values)).toBe(true);
    const back = toTableGame(plain);
    expect(back.values).toBeInstanceOf(Float64Array);
    expect(back).toEqual(table);
    expect(toSessionGame({ id: 'h', players: ['a'], values: Float64Array.from([0, 1]) })).not.toHaveProperty('range');
  });

  it('gives back the very array a list came from, so the store sees unchanged inputs', () => {
    const session = gameSession();
    const games = session.games ?? [];
    const tables = toTableGames(games);
    expect(toTableGames(games)).toBe(tables);
    expect(toSessionGames(tables)).toBe(games);
    const fresh = [{ id: 'x', players: ['a'], values: Float64Array.from([0, 1]) }];
    expect(toSessionGames(fresh)).toBe(toSessionGames(fresh));
  });

  it('a game saved to a file and reopened gives the engine the same Shapley values', () => {
    const table = { id: 'g', players: ['planner', 'retriever'], values: Float64Array.from([0, 1, 0.5, 1]) };
    const session = { ...gameSession({ results: [] }), games: toSessionGames([table]) };
    const [reopened] = toTableGames(parseSessionFile(exportSessionFile(session)).games ?? []);
    const before = analyzeTableGame(table, DEFAULT_SETTINGS);
    const after = analyzeTableGame(reopened, DEFAULT_SETTINGS);
    expect(after.shapley).toEqual(before.shapley);
    expect(after.shapley?.planner).toBeCloseTo(0.75, 12);
  });
});

import { describe, expect, it } from 'vitest';
import { MAX_TABLE_PLAYERS, parsePlayers, parseRange } from './game-fields.ts';
import { thrownBy } from '../engine/testing/thrown.ts';

const messageOf = (action: () => unknown): string => thrownBy(action, Error).message;

describe('parsePlayers', () => {
  it('keeps distinct non-empty names in order', () => {
    expect(parsePlayers(['planner', 'writer'], 'games[0].players')).toEqual(['planner', 'writer']);
  });

  it.each([
    [[], 'games[0].players: expected at least one player'],
    [['planner', ''], 'games[0].players[1]: expected a non-empty string'],
    [['planner', 'writer', 'planner'], 'games[0].players[2]: player "planner" repeated (also players[0])'],
    [
      Array.from({ length: MAX_TABLE_PLAYERS + 1 }, (_, i) => `p${i}`),
      `games[0].players: too many players (${MAX_TABLE_PLAYERS + 1}): a full table of 2^${MAX_TABLE_PLAYERS + 1} coalitions is too large; game files take at most ${MAX_TABLE_PLAYERS} players`,
    ],
  ])('rejects %j', (players, message) => {
    expect(messageOf(() => parsePlayers(players, 'games[0].players'))).toBe(message);
  });
});

describe('parseRange', () => {
  it('reads [lo, hi] with lo < hi', () => {
    expect(parseRange([0, 1], 'range')).toEqual([0, 1]);
  });

  it.each([
    [[0], 'range: expected [lo, hi], got an array of 1'],
    [[1, 1], 'range: expected lo < hi, got [1, 1]'],
    [[0, 'one'], 'range[1]: expected a number, got the string "one"'],
  ])('rejects %j', (range, message) => {
    expect(messageOf(() => parseRange(range, 'range'))).toBe(message);
  });
});

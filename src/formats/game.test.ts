import { describe, expect, it } from 'vitest';
import { coalitionLabel, MAX_TABLE_PLAYERS, parseGameFile } from './game.ts';
import { formatErrorOf, readFixture } from './test-helpers.ts';

interface GameJson {
  id?: unknown;
  players?: unknown;
  values?: unknown;
  range?: unknown;
  [extra: string]: unknown;
}

function gameText(...games: GameJson[]): string {
  return JSON.stringify({ format: 'agentblame-game', version: 1, games });
}

function messageOf(text: string): string {
  return formatErrorOf(() => parseGameFile(text)).message;
}

/** A complete two-player game; `edit` changes its value list. */
function twoPlayerGame(edit: (values: { fixed: unknown[]; value: unknown }[]) => unknown = (v) => v): GameJson {
  const values = [
    { fixed: [], value: 0 },
    { fixed: ['planner'], value: 1 },
    { fixed: ['retriever'], value: 1 },
    { fixed: ['planner', 'retriever'], value: 1 },
  ];
  return { id: 'case-1', players: ['planner', 'retriever'], values: edit(values) };
}

describe('parseGameFile, good files', () => {
  it('builds the value table by bitmask, whatever the order of entries and of fixed players', () => {
    const file = parseGameFile(readFixture('three-steps.game.json'));
    expect(file.format).toBe('agentblame-game');
    expect(file.games.map((game) => game.id)).toEqual(['case-1', 'case-2']);
    const [first, second] = file.games;
    expect(first.players).toEqual(['planner', 'retriever', 'writer']);
    expect(first.range).toEqual([0, 1]);
    // bit 0 planner, bit 1 retriever, bit 2 writer
    expect(Array.from(first.values)).toEqual([0, 0, 1, 1, 0, 1, 1, 1]);
    expect(first.values).toBeInstanceOf(Float64Array);
    expect(second.range).toBeUndefined();
    expect('range' in second).toBe(false);
    // Players in another order are fine; bit 0 is then writer, bit 1 retriever, bit 2 planner.
    expect(second.players).toEqual(['writer', 'retriever', 'planner']);
    expect(Array.from(second.values)).toEqual([-1, 1000, 0.25, 5, 0, 3, 4, 2.5]);
  });

  it('labels coalitions in player order', () => {
    expect(coalitionLabel(['planner', 'retriever', 'writer'], 0b101)).toBe('{planner, writer}');
    expect(coalitionLabel(['planner'], 0)).toBe('{}');
  });
});

describe('parseGameFile, bad files', () => {
  it('rejects an empty file, invalid JSON, another format and another version', () => {
    expect(messageOf('')).toBe('the file is empty');
    expect(messageOf('{"format": "agentblame-game",, }')).toBe(
      'invalid JSON at line 1, column 30: expected a property name in double quotes, found ","',
    );
    expect(messageOf(JSON.stringify({ format: 'agentblame-trace', version: 1, cases: [] }))).toBe(
      'format: expected "agentblame-game", got the string "agentblame-trace"',
    );
    expect(messageOf(JSON.stringify({ format: 'agentblame-game', version: 2, games: [] }))).toBe(
      'version: unsupported version 2 (this reads agentblame-game version 1)',
    );
  });

  it('rejects a missing, non-array or empty game list', () => {
    expect(messageOf(JSON.stringify({ format: 'agentblame-game', version: 1 }))).toBe('games: missing (expected an array)');
    expect(messageOf(JSON.stringify({ format: 'agentblame-game', version: 1, games: {} }))).toBe(
      'games: expected an array, got an object',
    );
    expect(messageOf(gameText())).toBe('games: the file has no games');
  });

  it('names the game and coalition of a missing coalition', () => {
    const game = {
      id: 'case-1',
      players: ['planner', 'retriever', 'writer'],
      values: [0, 1, 2, 3, 4, 6, 7].map((mask) => ({
        fixed: ['planner', 'retriever', 'writer'].filter((_, bit) => (mask & (1 << bit)) !== 0),
        value: 0,
      })),
    };
    const error = formatErrorOf(() => parseGameFile(gameText(game)));
    expect(error.message).toBe(
      'games[0] "case-1": missing coalition {planner, writer} (7 of 8 coalitions given; a game needs every coalition)',
    );
    expect(error.path).toBe('games[0] "case-1"');
    expect(messageOf(gameText(twoPlayerGame((values) => values.slice(1))))).toBe(
      'games[0] "case-1": missing coalition {} (3 of 4 coalitions given; a game needs every coalition)',
    );
  });

  it('names an unknown player in fixed', () => {
    const game = twoPlayerGame((values) => values.map((entry, index) => (index === 2 ? { ...entry, fixed: ['writer'] } : entry)));
    expect(messageOf(gameText(game))).toBe(
      'games[0] "case-1".values[2].fixed[0]: unknown player "writer" (players: planner, retriever)',
    );
  });

  it('names a player repeated in fixed', () => {
    const game = twoPlayerGame((values) => values.map((entry, index) => (index === 3 ? { ...entry, fixed: ['planner', 'planner'] } : entry)));
    expect(messageOf(gameText(game))).toBe('games[0] "case-1".values[3].fixed[1]: player "planner" repeated');
  });

  it('names a player repeated in players', () => {
    expect(messageOf(gameText({ ...twoPlayerGame(), players: ['planner', 'retriever', 'planner'] }))).toBe(
      'games[0] "case-1".players[2]: player "planner" repeated (also players[0])',
    );
  });

  it('names a coalition given twice, whatever the order of its players', () => {
    const game = twoPlayerGame((values) => [...values, { fixed: ['retriever', 'planner'], value: 1 }]);
    expect(messageOf(gameText(game))).toBe(
      'games[0] "case-1".values[4].fixed: coalition {planner, retriever} given twice (also values[3])',
    );
  });

  it('names the coalition of a non-finite or non-numeric value', () => {
    const text = gameText(twoPlayerGame()).replace('"fixed":["retriever"],"value":1', '"fixed":["retriever"],"value":1e999');
    expect(messageOf(text)).toBe('games[0] "case-1".values[2].value: value of coalition {retriever} is not finite (Infinity)');
    const stringValue = twoPlayerGame((values) => values.map((entry, index) => (index === 1 ? { ...entry, value: '1' } : entry)));
    expect(messageOf(gameText(stringValue))).toBe(
      'games[0] "case-1".values[1].value: expected a number for coalition {planner}, got the string "1"',
    );
    const missingValue = twoPlayerGame((values) => values.map((entry, index) => (index === 0 ? { fixed: [] } : entry)));
    expect(messageOf(gameText(missingValue))).toBe(
      'games[0] "case-1".values[0].value: missing (expected a number for coalition {})',
    );
  });

  it('rejects a bad range and values outside it', () => {
    expect(messageOf(gameText({ ...twoPlayerGame(), range: [1, 1] }))).toBe('games[0] "case-1".range: expected lo < hi, got [1, 1]');
    expect(messageOf(gameText({ ...twoPlayerGame(), range: [2, 0] }))).toBe('games[0] "case-1".range: expected lo < hi, got [2, 0]');
    expect(messageOf(gameText({ ...twoPlayerGame(), range: [0] }))).toBe('games[0] "case-1".range: expected [lo, hi], got an array of 1');
    expect(messageOf(gameText({ ...twoPlayerGame(), range: [0, 'one'] }))).toBe(
      'games[0] "case-1".range[1]: expected a number, got the string "one"',
    );
    expect(messageOf(gameText({ ...twoPlayerGame(), range: [0, 0.5] }))).toBe(
      'games[0] "case-1".values[1].value: 1 for coalition {planner} is outside the range [0, 0.5]',
    );
  });

  it('rejects too many players for a full table, before reading any value', () => {
    const players = Array.from({ length: MAX_TABLE_PLAYERS + 1 }, (_, index) => `step-${index}`);
    expect(messageOf(gameText({ id: 'big', players, values: [] }))).toBe(
      'games[0] "big".players: too many players (25): a full table of 2^25 coalitions is too large; game files take at most 24 players',
    );
  });

  it('reports a missing coalition for many players without building the full table', () => {
    const players = Array.from({ length: MAX_TABLE_PLAYERS }, (_, index) => `step-${index}`);
    expect(messageOf(gameText({ id: 'big', players, values: [{ fixed: [], value: 0 }, { fixed: ['step-0'], value: 1 }] }))).toBe(
      'games[0] "big": missing coalition {step-1} (2 of 16777216 coalitions given; a game needs every coalition)',
    );
  });

  it('rejects no players, empty and non-string player names', () => {
    expect(messageOf(gameText({ id: 'g', players: [], values: [] }))).toBe('games[0] "g".players: expected at least one player');
    expect(messageOf(gameText({ ...twoPlayerGame(), players: ['planner', ''] }))).toBe(
      'games[0] "case-1".players[1]: expected a non-empty string',
    );
    expect(messageOf(gameText({ ...twoPlayerGame(), players: ['planner', 2] }))).toBe(
      'games[0] "case-1".players[1]: expected a string, got 2',
    );
  });

  it('rejects a bad id, unknown fields and malformed entries', () => {
    expect(messageOf(gameText({ ...twoPlayerGame(), id: '' }))).toBe('games[0].id: expected a non-empty string');
    expect(messageOf(gameText({ ...twoPlayerGame(), weights: [] }))).toBe(
      'games[0] "case-1".weights: unknown field (expected one of: id, players, values, range)',
    );
    expect(messageOf(gameText(twoPlayerGame((values) => [...values.slice(0, 3), [1]])))).toBe(
      'games[0] "case-1".values[3]: expected an object, got an array',
    );
    expect(messageOf(gameText(twoPlayerGame((values) => values.map((entry) => ({ ...entry, fixed: 'planner' })))))).toBe(
      'games[0] "case-1".values[0].fixed: expected an array, got the string "planner"',
    );
    expect(messageOf(gameText(twoPlayerGame((values) => ({ list: values }))))).toBe(
      'games[0] "case-1".values: expected an array, got an object',
    );
    expect(messageOf(gameText(twoPlayerGame((values) => values.map((entry) => ({ ...entry, weight: 1 })))))).toBe(
      'games[0] "case-1".values[0].weight: unknown field (expected one of: fixed, value)',
    );
  });

  it('rejects games whose players differ from the first game\'s (a file is one batch), accepting another order', () => {
    const swapped = { ...twoPlayerGame(), id: 'case-2', players: ['retriever', 'planner'] };
    expect(parseGameFile(gameText(twoPlayerGame(), swapped)).games).toHaveLength(2);
    const other = { ...twoPlayerGame(), id: 'case-2', players: ['planner', 'writer'] };
    other.values = (other.values as { fixed: string[]; value: number }[]).map((v) => ({ ...v, fixed: v.fixed.map((p) => (p === 'retriever' ? 'writer' : p)) }));
    expect(messageOf(gameText(twoPlayerGame(), other))).toBe(
      'games[1] "case-2".players: the players (planner, writer) differ from those of games[0] (planner, retriever); a file is one batch, so every game needs the same players (in any order)',
    );
  });

  it('rejects duplicate game ids, naming both games', () => {
    expect(messageOf(gameText(twoPlayerGame(), { ...twoPlayerGame(), id: 'case-2' }, twoPlayerGame()))).toBe(
      'games[2] "case-1".id: duplicate game id (also games[0])',
    );
  });
});

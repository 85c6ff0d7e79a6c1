import type { CaseDef } from '../engine/types.ts';
import { FormatError } from '../formats/format-error.ts';
import { parsePlayers, parseRange } from '../formats/game-fields.ts';
import { childPath, indexPath } from '../formats/json-path.ts';
import { describeValue, expectArray, expectNonEmptyString, expectObject, rejectUnknownFields } from '../formats/validate.ts';
import type { SessionGame } from './types.ts';
import { optionalField, requiredField } from './validate-fields.ts';

const GAME_FIELDS = ['id', 'players', 'values', 'range'] as const;

/**
 * v by bitmask: exactly 2^players values, each finite and inside the range when one is given.
 * A plain loop that builds an element's path only on error, since a table may hold millions.
 */
function validateValues(value: unknown, path: string, playerCount: number, range: [number, number] | undefined): number[] {
  const list = expectArray(value, path);
  const size = 2 ** playerCount;
  if (list.length !== size) {
    throw new FormatError(path, `expected ${size} values (one per coalition of ${playerCount} players, by bitmask), got ${list.length}`);
  }
  const values = new Array<number>(size);
  for (let mask = 0; mask < size; mask++) {
    const v = list[mask];
    if (typeof v !== 'number' || !Number.isFinite(v)) throw new FormatError(indexPath(path, mask), `expected a finite number, ${describeValue(v)}`);
    if (range !== undefined && (v < range[0] || v > range[1])) {
      throw new FormatError(indexPath(path, mask), `${v} is outside the range [${range[0]}, ${range[1]}]`);
    }
    values[mask] = v;
  }
  return values;
}

/** One game table of a session (SessionGame), rebuilt from untrusted JSON. */
export function validateSessionGame(value: unknown, path: string): SessionGame {
  const object = expectObject(value, path);
  rejectUnknownFields(object, GAME_FIELDS, path);
  const id = requiredField(object, 'id', path, expectNonEmptyString);
  const players = requiredField(object, 'players', path, parsePlayers);
  const range = optionalField(object, 'range', path, parseRange);
  const values = requiredField(object, 'values', path, (v, p) => validateValues(v, p, players.length, range));
  return { id, players, values, ...(range !== undefined && { range }) };
}

/**
 * The session's games: each valid, ids distinct from each other and from the case ids (a result
 * names its case or game by id alone).
 */
export function validateSessionGames(value: unknown, path: string, cases: readonly CaseDef[]): SessionGame[] {
  const list = expectArray(value, path);
  const caseIds = new Set(cases.map((c) => c.id));
  const seen = new Set<string>();
  return list.map((item, index) => {
    const game = validateSessionGame(item, indexPath(path, index));
    const idPath = childPath(indexPath(path, index), 'id');
    if (caseIds.has(game.id)) throw new FormatError(idPath, `game id ${JSON.stringify(game.id)} is also a case id`);
    if (seen.has(game.id)) throw new FormatError(idPath, `game id ${JSON.stringify(game.id)} appears twice`);
    seen.add(game.id);
    return game;
  });
}

/**
 * The game file (docs/formats.md, "Game files"): coalition values computed elsewhere, one table per case. Each game
 * lists its players and v(S) for every coalition S of players "fixed"; `parseGameFile` turns the
 * list into a table indexed by bitmask (bit i set = players[i] fixed) and names the game and
 * coalition of the first problem (`games[0] "case-1": missing coalition {planner, writer}`).
 */
import type { TableGame } from '../engine/index.ts';
import { expectFormatHeader } from './format-header.ts';
import { FormatError } from './format-error.ts';
import { MAX_TABLE_PLAYERS, parsePlayers, parseRange } from './game-fields.ts';
import { childPath, indexPath } from './json-path.ts';
import { stripByteOrderMark, parseJson } from './parse-json.ts';
import {
  describeValue,
  expectArray,
  expectNonEmptyString,
  expectObject,
  expectString,
  isJsonObject,
  mismatch,
  ownField,
  rejectUnknownFields,
} from './validate.ts';

export const GAME_FORMAT = 'agentblame-game';
export const GAME_VERSION = 1;
export { MAX_TABLE_PLAYERS };

/**
 * A game as a full value table: `values[mask]` is v of the coalition whose bit i means players[i]
 * is fixed. Defined by the engine (its analyzeTableGame takes it); re-exported here as the result
 * type of the game-file importer so the two cannot drift apart.
 */
export type { TableGame };

export interface GameFile {
  format: 'agentblame-game';
  version: 1;
  games: TableGame[];
}

const DOCUMENT_FIELDS = ['format', 'version', 'games'] as const;
const GAME_FIELDS = ['id', 'players', 'values', 'range'] as const;
const ENTRY_FIELDS = ['fixed', 'value'] as const;

/** `{planner, writer}`: the players of a coalition, in player order. */
export function coalitionLabel(players: readonly string[], mask: number): string {
  return `{${players.filter((_, index) => (mask & (1 << index)) !== 0).join(', ')}}`;
}

/** The bitmask of a `fixed` list, rejecting unknown and repeated players. */
function parseCoalition(value: unknown, path: string, players: readonly string[], indexOf: Map<string, number>): number {
  const names = expectArray(value, path);
  let mask = 0;
  names.forEach((item, position) => {
    const itemPath = indexPath(path, position);
    const name = expectString(item, itemPath);
    const player = indexOf.get(name);
    if (player === undefined) {
      throw new FormatError(itemPath, `unknown player ${JSON.stringify(name)} (players: ${players.join(', ')})`);
    }
    const bit = 1 << player;
    if ((mask & bit) !== 0) throw new FormatError(itemPath, `player ${JSON.stringify(name)} repeated`);
    mask |= bit;
  });
  return mask;
}

/**
 * Where each coalition was first given. A dense typed array when the file lists at least 2^n
 * entries (then the table is allocated anyway); a map otherwise, so a short list for many players
 * never allocates a 2^n table only to report a missing coalition.
 */
class CoalitionIndex {
  private readonly dense: Int32Array | null;
  private readonly sparse = new Map<number, number>();

  constructor(size: number, entries: number) {
    this.dense = entries >= size ? new Int32Array(size).fill(-1) : null;
  }

  get(mask: number): number | undefined {
    if (this.dense === null) return this.sparse.get(mask);
    const entry = this.dense[mask];
    return entry === -1 ? undefined : entry;
  }

  set(mask: number, entry: number): void {
    if (this.dense === null) this.sparse.set(mask, entry);
    else this.dense[mask] = entry;
  }
}

/** Validates one game. `path` is `games[i]`. */
export function parseGame(value: unknown, path: string): TableGame {
  const object = expectObject(value, path);
  const id = expectNonEmptyString(ownField(object, 'id'), childPath(path, 'id'));
  const label = `${path} ${JSON.stringify(id)}`;
  rejectUnknownFields(object, GAME_FIELDS, label);
  const players = parsePlayers(ownField(object, 'players'), childPath(label, 'players'));
  const rangeValue = ownField(object, 'range');
  const range = rangeValue === undefined ? undefined : parseRange(rangeValue, childPath(label, 'range'));

  const valuesPath = childPath(label, 'values');
  const entries = expectArray(ownField(object, 'values'), valuesPath);
  const indexOf = new Map(players.map((name, index) => [name, index]));
  const size = 2 ** players.length;
  const firstEntry = new CoalitionIndex(size, entries.length);
  // Only filled when the list can be complete; a shorter list always ends in a missing-coalition error.
  const table = new Float64Array(entries.length >= size ? size : 0);

  entries.forEach((entryValue, entryIndex) => {
    const entryPath = indexPath(valuesPath, entryIndex);
    const entry = expectObject(entryValue, entryPath);
    rejectUnknownFields(entry, ENTRY_FIELDS, entryPath);
    const mask = parseCoalition(ownField(entry, 'fixed'), childPath(entryPath, 'fixed'), players, indexOf);
    const coalition = coalitionLabel(players, mask);
    const earlier = firstEntry.get(mask);
    if (earlier !== undefined) {
      throw new FormatError(
        childPath(entryPath, 'fixed'),
        `coalition ${coalition} given twice (also ${indexPath('values', earlier)})`,
      );
    }
    firstEntry.set(mask, entryIndex);

    const valuePath = childPath(entryPath, 'value');
    const v = ownField(entry, 'value');
    if (typeof v !== 'number') {
      throw new FormatError(valuePath, mismatch(`a number for coalition ${coalition}`, v));
    }
    if (!Number.isFinite(v)) throw new FormatError(valuePath, `value of coalition ${coalition} is not finite (${v})`);
    if (range !== undefined && (v < range[0] || v > range[1])) {
      throw new FormatError(valuePath, `${v} for coalition ${coalition} is outside the range [${range[0]}, ${range[1]}]`);
    }
    if (table.length > 0) table[mask] = v;
  });

  if (entries.length < size) {
    let missing = 0;
    while (firstEntry.get(missing) !== undefined) missing++;
    throw new FormatError(
      label,
      `missing coalition ${coalitionLabel(players, missing)} (${entries.length} of ${size} coalitions given; ` +
        'a game needs every coalition)',
    );
  }
  return { id, players, values: table, ...(range === undefined ? {} : { range }) };
}

/** Validates a game file given as one parsed JSON document. */
export function gameFileFromDocument(document: unknown): GameFile {
  if (!isJsonObject(document)) {
    throw new FormatError('', `expected a JSON object at the top level, ${describeValue(document)}`);
  }
  expectFormatHeader(document, '', GAME_FORMAT, GAME_VERSION);
  rejectUnknownFields(document, DOCUMENT_FIELDS, '');
  const list = expectArray(ownField(document, 'games'), 'games');
  if (list.length === 0) throw new FormatError('games', 'the file has no games');
  const firstPlace = new Map<string, string>();
  let games0: readonly string[] = [];
  const games = list.map((value, index) => {
    const path = indexPath('games', index);
    const game = parseGame(value, path);
    const earlier = firstPlace.get(game.id);
    if (earlier !== undefined) {
      throw new FormatError(`${path} ${JSON.stringify(game.id)}.id`, `duplicate game id (also ${earlier})`);
    }
    firstPlace.set(game.id, path);
    // The games of one file form one batch, aggregated per player: every game needs the same players.
    if (index > 0 && !samePlayers(games0, game.players)) {
      throw new FormatError(
        `${path} ${JSON.stringify(game.id)}.players`,
        `the players (${game.players.join(', ')}) differ from those of games[0] (${games0.join(', ')}); a file is one batch, so every game needs the same players (in any order)`,
      );
    }
    if (index === 0) games0 = game.players;
    return game;
  });
  return { format: GAME_FORMAT, version: GAME_VERSION, games };
}

function samePlayers(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((p) => set.has(p));
}

/** Parses an `agentblame-game` JSON file. Throws FormatError. */
export function parseGameFile(text: string): GameFile {
  const body = stripByteOrderMark(text);
  if (body.trim() === '') throw new FormatError('', 'the file is empty');
  return gameFileFromDocument(parseJson(body));
}

/**
 * Game tables between the workbench and the session. The engine and the workbench hold a
 * TableGame, whose values are a Float64Array; the session holds a SessionGame, whose values are a
 * plain number array, because a session is also JSON (the file, the report's data block) and JSON
 * has no typed arrays. Converting at these two edges keeps the session plain data everywhere.
 *
 * Each conversion remembers its counterpart, so converting a list back gives the very array it
 * came from. The store recognises unchanged inputs by identity (see SessionStore.put), so a game
 * study reopened from the store and saved again does not rewrite its tables.
 */
import type { TableGame } from '../engine/index.ts';
import type { SessionGame } from './types.ts';

const sessionGamesOf = new WeakMap<readonly TableGame[], SessionGame[]>();
const tableGamesOf = new WeakMap<readonly SessionGame[], TableGame[]>();

function remember(table: TableGame[], session: SessionGame[]): void {
  sessionGamesOf.set(table, session);
  tableGamesOf.set(session, table);
}

/** One game as plain data (values copied out of the typed array). */
export function toSessionGame(game: TableGame): SessionGame {
  return {
    id: game.id,
    players: [...game.players],
    values: Array.from(game.values),
    ...(game.range !== undefined && { range: [game.range[0], game.range[1]] }),
  };
}

/** One stored game as the engine's table (values copied into a Float64Array). */
export function toTableGame(game: SessionGame): TableGame {
  return {
    id: game.id,
    players: [...game.players],
    values: Float64Array.from(game.values),
    ...(game.range !== undefined && { range: [game.range[0], game.range[1]] }),
  };
}

/** The workbench's games as session data; the same list always gives the same array. */
export function toSessionGames(games: TableGame[]): SessionGame[] {
  let converted = sessionGamesOf.get(games);
  if (converted === undefined) {
    converted = games.map(toSessionGame);
    remember(games, converted);
  }
  return converted;
}

/** A session's games as engine tables; the same list always gives the same array. */
export function toTableGames(games: SessionGame[]): TableGame[] {
  let converted = tableGamesOf.get(games);
  if (converted === undefined) {
    converted = games.map(toTableGame);
    remember(converted, games);
  }
  return converted;
}

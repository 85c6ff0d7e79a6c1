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

/** The same game with other values; the players and the range are copied, so the two never share an array. */
function withValues<V>(game: TableGame | SessionGame, values: V): { id: string; players: string[]; values: V; range?: [number, number] } {
  return {
    id: game.id,
    players: [...game.players],
    values,
    ...(game.range !== undefined && { range: [game.range[0], game.range[1]] }),
  };
}

/** One game as plain data (values copied out of the typed array). */
export function toSessionGame(game: TableGame): SessionGame {
  return withValues(game, Array.from(game.values));
}

/** One stored game as the engine's table (values copied into a Float64Array). */
export function toTableGame(game: SessionGame): TableGame {
  return withValues(game, Float64Array.from(game.values));
}

/** `list` converted once: later calls with the same list give the same array. */
function convertOnce<A, B>(list: A[], known: WeakMap<readonly A[], B[]>, convert: (item: A) => B, pair: (list: A[], converted: B[]) => void): B[] {
  let converted = known.get(list);
  if (converted === undefined) {
    converted = list.map(convert);
    pair(list, converted);
  }
  return converted;
}

/** The workbench's games as session data; the same list always gives the same array. */
export function toSessionGames(games: TableGame[]): SessionGame[] {
  return convertOnce(games, sessionGamesOf, toSessionGame, remember);
}

/** A session's games as engine tables; the same list always gives the same array. */
export function toTableGames(games: SessionGame[]): TableGame[] {
  return convertOnce(games, tableGamesOf, toTableGame, (session, table) => remember(table, session));
}

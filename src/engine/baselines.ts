import type { Game } from './types.ts';

/** Fix-alone: v({i}) - v(empty), what fixing step i on its own changes. */
export function fixAlone(game: Game): number[] {
  const v0 = game.value(0);
  return game.players.map((_, i) => game.value(2 ** i) - v0);
}

/** Leave-one-out (but-for from the fully fixed state): v(all) - v(all - i). */
export function leaveOneOut(game: Game): number[] {
  const full = 2 ** game.players.length - 1;
  const vAll = game.value(full);
  return game.players.map((_, i) => vAll - game.value(full - 2 ** i));
}

/**
 * Last step to touch: the last step, in pipeline order, whose factual output differs from its
 * output with every fix applied (outputs compared by interned canonical id); null if none does.
 */
export function lastTouch(players: readonly string[], factualIds: ArrayLike<number>, fixedIds: ArrayLike<number>): string | null {
  for (let i = players.length - 1; i >= 0; i--) if (factualIds[i] !== fixedIds[i]) return players[i];
  return null;
}

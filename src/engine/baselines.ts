import type { Game } from './types.ts';
import { complementOf, emptyCoalition, fullCoalition, singletonCoalition } from './coalition.ts';

/** Fix-alone: v({i}) - v(empty), what fixing step i on its own changes. */
export function fixAlone(game: Game): number[] {
  const n = game.players.length;
  const v0 = game.value(emptyCoalition(n));
  return game.players.map((_, i) => game.value(singletonCoalition(n, i)) - v0);
}

/** Leave-one-out (but-for from the fully fixed state): v(all) - v(all - i). */
export function leaveOneOut(game: Game): number[] {
  const n = game.players.length;
  const vAll = game.value(fullCoalition(n));
  return game.players.map((_, i) => vAll - game.value(complementOf(singletonCoalition(n, i), n)));
}

/**
 * Last step to touch: the last step, in pipeline order, whose factual output differs from its
 * output with every fix applied (outputs compared by interned canonical id); null if none does.
 */
export function lastTouch(players: readonly string[], factualIds: ArrayLike<number>, fixedIds: ArrayLike<number>): string | null {
  for (let i = players.length - 1; i >= 0; i--) if (factualIds[i] !== fixedIds[i]) return players[i];
  return null;
}

/**
 * Last step to touch: the last step, in pipeline order, whose factual output differs from its
 * output with every fix applied (outputs compared by interned canonical id); null if none does.
 */
export function lastTouch(players: readonly string[], factualIds: ArrayLike<number>, fixedIds: ArrayLike<number>): string | null {
  for (let i = players.length - 1; i >= 0; i--) if (factualIds[i] !== fixedIds[i]) return players[i];
  return null;
}

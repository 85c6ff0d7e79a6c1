/**
 * Fields of a game table (docs/formats.md, "Game files") that both the game file (game.ts) and a saved session's
 * games (src/session/validate-game.ts) read: one set of rules and messages for both.
 */
import { FormatError } from './format-error.ts';
import { indexPath } from './json-path.ts';
import { expectArray, expectFiniteNumber, expectNonEmptyString } from './validate.ts';

/** A full table has 2^n entries; 2^24 doubles is 128 MiB, the most a browser tab can be asked for. */
export const MAX_TABLE_PLAYERS = 24;

/** Player names, non-empty and distinct, at most MAX_TABLE_PLAYERS of them. */
export function parsePlayers(value: unknown, path: string): string[] {
  const list = expectArray(value, path);
  if (list.length === 0) throw new FormatError(path, 'expected at least one player');
  if (list.length > MAX_TABLE_PLAYERS) {
    throw new FormatError(
      path,
      `too many players (${list.length}): a full table of 2^${list.length} coalitions is too large; ` +
        `game files take at most ${MAX_TABLE_PLAYERS} players`,
    );
  }
  const firstIndex = new Map<string, number>();
  return list.map((item, index) => {
    const itemPath = indexPath(path, index);
    const name = expectNonEmptyString(item, itemPath);
    const earlier = firstIndex.get(name);
    if (earlier !== undefined) {
      throw new FormatError(itemPath, `player ${JSON.stringify(name)} repeated (also ${indexPath('players', earlier)})`);
    }
    firstIndex.set(name, index);
    return name;
  });
}

/** `[lo, hi]` with finite lo < hi: the range every value of the table lies in. */
export function parseRange(value: unknown, path: string): [number, number] {
  const pair = expectArray(value, path);
  if (pair.length !== 2) throw new FormatError(path, `expected [lo, hi], got an array of ${pair.length}`);
  const lo = expectFiniteNumber(pair[0], indexPath(path, 0));
  const hi = expectFiniteNumber(pair[1], indexPath(path, 1));
  if (!(lo < hi)) throw new FormatError(path, `expected lo < hi, got [${lo}, ${hi}]`);
  return [lo, hi];
}

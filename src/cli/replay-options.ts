import type { PlayersKind } from '../replay/index.ts';

/** The replay flags of the command, as read by replay-args.ts (docs/replay.md, "Command"). */
export interface ReplayCliOptions {
  runs: string[];
  players: PlayersKind;
  /** Every `--fix` as written (TURN=KIND[:ARG]); several may name one turn. */
  fixes: string[];
  expect?: string;
  judge?: string;
  metric?: string;
  tools?: string;
  contrast?: number;
  emitDefinition?: string;
  /** `--score [PREDICTIONS.json]`: score the replay's picks against the runs' labels (a predictions file beside them, optional). */
  score?: string | true;
}

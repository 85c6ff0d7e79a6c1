/**
 * The players of one replayed run, ranked by Shapley value (highest first, ties keep the
 * definition's order) with the recorded turns each stands for; unranked while there is no value.
 */
import type { CaseResult } from '../../engine/types.ts';
import type { RecordedTurnView, RecordingView } from './recording-of.ts';

export interface PlayerRow {
  /** The definition's step name of the player. */
  player: string;
  /** 1-based rank, null when the case has no values. */
  rank: number | null;
  value: number | undefined;
  turns: RecordedTurnView[];
}

/** `steps` are the definition's step names, in order: player p of the run is step p. */
export function rankPlayers(recording: RecordingView, steps: readonly string[], result: CaseResult | undefined): PlayerRow[] {
  const shapley = result?.shapley;
  const rows = recording.players.map((_, p) => ({
    player: steps[p] ?? recording.players[p],
    rank: null as number | null,
    value: shapley ? shapley[steps[p]] : undefined,
    turns: recording.turns.filter((t) => t.player === p),
  }));
  if (!shapley) return rows;
  const ranked = rows.map((row, p) => ({ row, p })).sort((a, b) => (b.row.value ?? -Infinity) - (a.row.value ?? -Infinity) || a.p - b.p);
  ranked.forEach(({ row }, k) => (row.rank = k + 1));
  return ranked.map(({ row }) => row);
}

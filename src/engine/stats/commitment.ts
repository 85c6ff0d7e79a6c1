/**
 * The point of commitment of a single-step contrast (docs/replay.md, "--contrast"): the earliest
 * model turn whose recorded prefix, the turn included, reproduces the failure in at least
 * 1 - epsilon of the replays by the Wilson lower bound. One rule for the replay that computes it
 * and for the session reader that checks a stored one against its own rows.
 */
export const COMMITMENT_EPSILON = 0.1;

export function commitmentRow<Row extends { kept: { n: number; ci: readonly [number, number] } }>(rows: readonly Row[]): Row | undefined {
  return rows.find((row) => row.kept.n > 0 && row.kept.ci[0] >= 1 - COMMITMENT_EPSILON);
}

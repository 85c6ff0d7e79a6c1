/**
 * The dependency graph of a recorded run as the run view marks it: for each recorded step that is
 * a replay turn, the earlier steps whose recorded output its context quotes verbatim (and how many
 * times), and the later steps that quote it. Found the way the replay finds it (src/replay).
 */
import { buildReplay, turnLinks } from '../../replay/index.ts';
import type { RecordedRun } from '../../runs/index.ts';

export interface StepTurn {
  /** Position among the run's turns. */
  turn: number;
  kind: 'model' | 'tool';
  /** Recorded step indices this step's context quotes, in order. */
  quotes: number[];
  /** Quoted spans in its context. */
  substitutions: number;
  /** Recorded step indices of the later turns that quote this one. */
  quotedBy: number[];
}

/** Replay turns by recorded step index; empty when the run has nothing to replay. */
export function runTurns(run: RecordedRun): Map<number, StepTurn> {
  let plan;
  try {
    // The outcome does not change the turns; a placeholder keeps a run without a recorded answer readable.
    plan = buildReplay([run], { players: 'steps', fixes: [], outcome: { kind: 'expect', text: '' }, origin: run.id }).runs[0];
  } catch {
    // Nothing to replay (ReplayPlanError), or a run the replay cannot read: the run view shows no marks.
    return new Map();
  }
  const turns = plan.turns;
  const stepOf = new Map(turns.map((t) => [t.index, t.step]));
  const links = turnLinks(plan);
  const out = new Map<number, StepTurn>(turns.map((t) => [t.step, { turn: t.index, kind: t.kind, quotes: links[t.index].dependsOn.map((j) => stepOf.get(j)!), substitutions: links[t.index].substitutions, quotedBy: [] }]));
  for (const t of turns) for (const j of links[t.index].dependsOn) out.get(stepOf.get(j)!)?.quotedBy.push(t.step);
  return out;
}

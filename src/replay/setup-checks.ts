/**
 * What the page's "Blame this run" setup warns about before anything is sent: tool calls that can
 * change with no stub to run (their recorded result would be reused, as the replay flags it), and
 * a recorded run that already meets the outcome (nothing to blame).
 */
import { containsAnswer, finalAnswer } from './rule.ts';
import type { Outcome, ReplayRunData } from './types.ts';

/** A tool turn whose call can change in the replay and whose tool has no stub. */
export interface UnstubbedToolTurn {
  /** The recorded step, as the setup numbers turns. */
  step: number;
  tool: string;
}

/**
 * Tool turns called by a model turn (a regenerated answer may call the tool otherwise) whose tool
 * is not among `stubbed` and that no `observation` fix replaces: when their call changes, the
 * recorded result is reused (`via: "reused"`, flagged in the results).
 */
export function unstubbedToolTurns(run: ReplayRunData, stubbed: ReadonlySet<string>): UnstubbedToolTurn[] {
  const found: UnstubbedToolTurn[] = [];
  for (const turn of run.turns) {
    if (turn.kind !== 'tool' || turn.call === undefined || turn.caller === undefined || turn.caller < 0) continue;
    if (stubbed.has(turn.call.name) || turn.fixes.some((f) => f.kind === 'observation')) continue;
    found.push({ step: turn.step, tool: turn.call.name });
  }
  return found;
}

/**
 * Whether the recorded run already meets the outcome (its final answer contains or matches the
 * expected text; `null`: the run's recorded correct answer, as buildReplay takes it); null when
 * that cannot be told without running something (a judge, a metric).
 */
export function recordedMeetsOutcome(run: ReplayRunData, given: Outcome | null): boolean | null {
  const outcome: Outcome = given ?? { kind: 'expect', text: null };
  const final = finalAnswer(run, {});
  if (outcome.kind === 'expect') return containsAnswer(final, outcome.text !== null ? outcome.text : (run.expected ?? ''));
  if (outcome.kind === 'expect-regex') return new RegExp(outcome.source, outcome.flags).test(final);
  return null;
}

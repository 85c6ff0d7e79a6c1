import type { Session } from '../session/types.ts';
import { ownValue } from './own.ts';

export interface FixConsidered {
  step: string;
  /** The fix's name, or null when only "the step's default fix" is known. */
  fix: string | null;
}

/**
 * The fixes the blame is relative to, one per step, in pipeline order.
 * Names come from, in order of preference: the caller (who may have compiled the definition),
 * the session's explicit fix choice, else "the default fix" (the definition's first fix,
 * whose name the report cannot know without running the definition).
 * Steps are those the caller lists, else every player seen in the results, then any step
 * named only in the fix choice.
 */
export function fixesConsidered(session: Session, given?: readonly FixConsidered[]): FixConsidered[] {
  const byStep = new Map<string, string | null>();
  for (const entry of given ?? []) byStep.set(entry.step, entry.fix);
  for (const result of session.results) {
    for (const player of result.players) if (!byStep.has(player)) byStep.set(player, null);
  }
  const choice = session.settings.fixChoice ?? {};
  for (const step of Object.keys(choice)) if (!byStep.has(step)) byStep.set(step, null);
  return [...byStep].map(([step, fix]) => ({ step, fix: fix ?? ownValue(choice, step) ?? null }));
}

import type { Session } from '../session/types.ts';
import { chosenFix, type FixUsed } from '../engine/fix-choice.ts';

/** The fix's name per step, or null when only "the step's default fix" is known. */
export type FixConsidered = FixUsed;

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
  const choice = session.settings.fixChoice;
  for (const step of Object.keys(choice ?? {})) if (!byStep.has(step)) byStep.set(step, null);
  return [...byStep].map(([step, fix]) => ({ step, fix: fix ?? chosenFix(choice, step) ?? null }));
}

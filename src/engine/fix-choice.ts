import type { AnalysisSettings } from './types.ts';

/** The fix one step is analysed with, by name; null when only "the step's default fix" is known. */
export interface FixUsed {
  step: string;
  fix: string | null;
}

/**
 * The fix the settings choose for a step, if they choose one. Own properties only: a step named
 * like an Object.prototype member (`constructor`, `toString`) must not pick up the inherited value.
 */
export function chosenFix(fixChoice: AnalysisSettings['fixChoice'], step: string): string | undefined {
  if (!fixChoice || !Object.hasOwn(fixChoice, step)) return undefined;
  const fix: unknown = fixChoice[step];
  return typeof fix === 'string' ? fix : undefined;
}

/**
 * The fix each step is analysed with, in pipeline order: the one chosen in the settings, else the
 * step's default (its first fix), else null for a step whose fixes are not known here.
 */
export function fixesUsed(steps: readonly { name: string; fixes: readonly string[] }[], fixChoice: AnalysisSettings['fixChoice']): FixUsed[] {
  return steps.map((step) => ({ step: step.name, fix: chosenFix(fixChoice, step.name) ?? step.fixes[0] ?? null }));
}

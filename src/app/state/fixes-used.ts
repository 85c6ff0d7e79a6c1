import type { AnalysisSettings } from '../../engine/types.ts';
import type { FixConsidered } from '../../report/index.ts';
import type { DefinitionSummary } from '../analysis/protocol.ts';

/**
 * The fix each step of a compiled definition is analysed with, in pipeline order: the one chosen
 * in the settings, else the step's default (its first). The report names these under "Fixes
 * considered"; without them it could only say "the default fix". A step with no fix gets null.
 */
export function fixesUsed(summary: DefinitionSummary, fixChoice: AnalysisSettings['fixChoice']): FixConsidered[] {
  return summary.steps.map((step) => {
    // Own properties only: a step named like an Object.prototype member must not pick that up.
    const chosen = fixChoice && Object.hasOwn(fixChoice, step.name) ? fixChoice[step.name] : undefined;
    return { step: step.name, fix: chosen ?? step.fixes[0] ?? null };
  });
}

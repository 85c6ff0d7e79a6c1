import type { DefinitionSummary } from '../analysis/protocol.ts';

/** Each step's default fix (its first), by step name. */
export function defaultFixes(summary: DefinitionSummary | null): Record<string, string> {
  const fixes: Record<string, string> = {};
  for (const step of summary?.steps ?? []) if (step.fixes.length > 0) fixes[step.name] = step.fixes[0];
  return fixes;
}

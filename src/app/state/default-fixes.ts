import type { DefinitionSummary } from '../../pool/page/protocol.ts';
import { namedRecord } from '../../engine/named-record.ts';

/** Each step's default fix (its first), by step name. */
export function defaultFixes(summary: DefinitionSummary | null): Record<string, string> {
  const steps = (summary?.steps ?? []).filter((step) => step.fixes.length > 0);
  return namedRecord(steps.map((step) => step.name), steps.map((step) => step.fixes[0]));
}

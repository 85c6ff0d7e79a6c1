import type { StudySide } from '../engine/compare-studies.ts';
import { recomputedBatch } from './stored-batch.ts';
import type { Session } from './types.ts';

/**
 * A stored session as one side of a comparison (compareStudies): its results and the batch
 * aggregated again from them (never the file's stored figures), as the command aggregates a stored
 * session, so the workbench's Compare view and `blame --compare` set the same numbers side by side.
 */
export function studySideOf(session: Session): StudySide {
  return { results: session.results, batch: recomputedBatch(session) };
}

import { aggregateBatch } from '../engine/batch.ts';
import type { StudySide } from '../engine/compare-studies.ts';
import type { Session } from './types.ts';

/**
 * A stored session as one side of a comparison (compareStudies): its results and its batch as
 * stored, else aggregated as the command aggregates a stored session without one (normal bound),
 * so the workbench's Compare view and `blame --compare` set the same numbers side by side.
 */
export function studySideOf(session: Session): StudySide {
  const batch = session.batch ?? aggregateBatch(session.results, { delta: session.settings.delta, bound: 'normal', ...(session.study?.range && { range: session.study.range }) });
  return { results: session.results, batch };
}

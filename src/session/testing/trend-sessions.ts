/** Sessions of the planted drift (engine/testing/trend-results.ts), as the command and the page store them. */
import { plantedDriftStudies } from '../../engine/testing/trend-results.ts';
import type { CaseResult } from '../../engine/types.ts';
import { buildSession } from '../build-session.ts';
import type { Session, StudyMeta } from '../types.ts';
import { SETTINGS } from './sample-session.ts';

export const TREND_PIPELINE = { name: 'refund-policy', source: 'export default { name: "refund-policy", steps: [] }' };

/** A finished session of `results` (every result's case listed), recorded at `recordedAt`. */
export function trendSession(id: string, recordedAt: string, results: CaseResult[], meta: Partial<StudyMeta> = {}, pipeline = TREND_PIPELINE): Session {
  return buildSession({
    id,
    name: pipeline.name,
    createdAt: '2026-06-01T00:00:00.000Z',
    updatedAt: '2026-06-01T00:00:00.000Z',
    fileName: `${id}.trace.json`,
    pipeline,
    cases: results.map((r) => ({ id: r.id, inputs: {} })),
    settings: SETTINGS,
    results,
    status: 'done',
    meta: { version: 1, recordedAt, recordedFrom: 'given', tags: [], ...meta },
  });
}

/** The twenty sessions of the planted drift (ten weeks, two a week). */
export function plantedDriftSessions(perStudy = 100): Session[] {
  return plantedDriftStudies(perStudy).map((s) => trendSession(s.id, s.recordedAt, s.results));
}

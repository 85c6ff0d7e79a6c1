import type { AnalysisSettings, BatchResult, CaseResult } from '../../engine/types.ts';
import type { Study } from '../importing/study.ts';
import { buildSession } from '../../session/build-session.ts';
import type { SessionIdentity } from '../../session/autosave.ts';
import type { Session, StudyMark } from '../../session/types.ts';

/**
 * The session (plain data) for a study, its settings and its finished results, through the one
 * session builder the command uses too. Game tables become plain number lists (the same array each
 * time for the same games, so the store sees them unchanged).
 */
export function sessionOf(
  identity: SessionIdentity,
  study: Study,
  settings: AnalysisSettings,
  results: CaseResult[],
  batch: BatchResult | null,
  status: Session['status'],
  mark?: StudyMark,
): Session {
  return buildSession({ ...identity, fileName: study.fileName, pipeline: study.pipeline, cases: study.cases, games: study.games, settings, results, batch, status, study: mark, modelCache: study.modelResponses, contrast: study.contrast, meta: study.meta });
}

import type { AnalysisSettings, BatchResult, CaseResult } from '../../engine/types.ts';
import type { Study } from '../importing/study.ts';
import { toSessionGames } from '../../session/games.ts';
import type { Session } from '../../session/types.ts';

/** The identity of the session a study is saved as. */
export interface SessionIdentity {
  id: string;
  name: string;
  createdAt: string;
  revision: number;
}

/**
 * The session (plain data) for a study, its settings and its finished results. Game tables become
 * plain number lists (the same array each time for the same games, so the store sees them unchanged).
 */
export function sessionOf(
  identity: SessionIdentity,
  study: Study,
  settings: AnalysisSettings,
  results: CaseResult[],
  batch: BatchResult | null,
  status: Session['status'],
): Session {
  const session: Session = {
    format: 'agentblame-session',
    version: 1,
    id: identity.id,
    name: identity.name,
    createdAt: identity.createdAt,
    updatedAt: new Date().toISOString(),
    fileName: study.fileName,
    cases: study.cases,
    settings,
    results,
    status,
    revision: identity.revision,
  };
  if (study.games.length > 0) session.games = toSessionGames(study.games);
  if (study.pipeline) session.pipeline = { name: study.pipeline.name, source: study.pipeline.source };
  if (batch) session.batch = batch;
  return session;
}

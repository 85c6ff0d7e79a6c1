import { isAnalysedFailure } from '../engine/case-result.ts';
import type { Session, SessionSummary } from './types.ts';

/** The list entry for a session (what "Recent sessions" shows). */
export function summarize(session: Session): SessionSummary {
  return {
    id: session.id,
    name: session.name,
    pipelineName: session.pipeline?.name ?? '',
    fileName: session.fileName,
    createdAt: session.createdAt,
    updatedAt: session.updatedAt,
    status: session.status,
    revision: session.revision,
    caseCount: session.cases.length + (session.games?.length ?? 0),
    casesAnalysed: session.results.length,
    failuresAnalysed: session.results.filter(isAnalysedFailure).length,
    mode: session.settings.mode,
    method: session.settings.method,
  };
}

/** Small, realistic sessions for the session tests (hand-made, not engine output). */
import { DEFAULT_SETTINGS } from '../../engine/index.ts';
import { testResult, type LooseResult } from '../../engine/testing/results.ts';
import type { AnalysisSettings, CaseResult } from '../../engine/types.ts';
import type { Session, SessionGame, SessionV0 } from '../types.ts';

/** The engine's defaults with a smaller permutation cap and a seed of its own. */
export const SETTINGS: AnalysisSettings = { ...DEFAULT_SETTINGS, maxPermutations: 2000, seed: 7 };

export function result(id: string, failed = true, extra: Partial<LooseResult> = {}): CaseResult {
  return testResult({
    id,
    players: ['planner', 'retriever'],
    method: 'exact',
    failed,
    vEmpty: 0,
    vAll: 1,
    shapley: { planner: 0.25, retriever: 0.75 },
    fixAlone: { planner: 0, retriever: 1 },
    leaveOneOut: { planner: 0, retriever: 1 },
    lastTouch: 'retriever',
    cost: 6,
    evaluations: 4,
    permutations: 0,
    stopReason: 'exact',
    fixable: true,
    coalitions: [
      { fixed: [], value: 0 },
      { fixed: ['planner'], value: 0 },
      { fixed: ['retriever'], value: 1 },
      { fixed: ['planner', 'retriever'], value: 1 },
    ],
    ...extra,
  });
}

export function session(overrides: Partial<Session> = {}): Session {
  const cases = ['q1', 'q2', 'q3'].map((id, index) => ({ id, inputs: { question: `question ${id}` }, seed: index + 1 }));
  return {
    format: 'agentblame-session',
    version: 1,
    id: 'session-1',
    name: 'refund-policy',
    createdAt: '2026-01-01T10:00:00.000Z',
    updatedAt: '2026-01-01T10:00:00.000Z',
    fileName: 'refund.trace.json',
    pipeline: { name: 'refund-policy', source: 'export default { name: "refund-policy", steps: [] }' },
    cases,
    settings: SETTINGS,
    results: [result('q1'), result('q2', false)],
    status: 'done',
    revision: 0,
    ...overrides,
  };
}

export function sessionV0(overrides: Partial<SessionV0> = {}): SessionV0 {
  const current = session();
  return {
    format: 'agentblame-session',
    version: 0,
    id: 'old-1',
    title: 'refund run (old)',
    savedAt: '2025-11-02T09:30:00.000Z',
    trace: { fileName: current.fileName, pipeline: current.pipeline, cases: current.cases },
    settings: SETTINGS,
    results: [result('q1')],
    ...overrides,
  };
}

/** A game table as session data: players [planner, retriever], v by bitmask. */
export function sessionGame(id: string, values: number[] = [0, 1, 0.5, 1]): SessionGame {
  return { id, players: ['planner', 'retriever'], values };
}

/** A game-table study (no pipeline, no cases): two games, the first analysed. */
export function gameSession(overrides: Partial<Session> = {}): Session {
  return session({
    id: 'game-session-1',
    name: 'either',
    fileName: 'either.game.json',
    pipeline: undefined,
    cases: [],
    games: [sessionGame('case-1'), { ...sessionGame('case-2', [0, 0.2, 0.4, 0.9]), range: [0, 1] }],
    results: [result('case-1')],
    ...overrides,
  });
}

/** A case the engine could not analyse: no values (NaN), no attribution, and why. */
export function errorCaseResult(id: string): CaseResult {
  return {
    id,
    players: ['planner', 'retriever'],
    method: 'exact',
    failed: true,
    vEmpty: Number.NaN,
    vAll: Number.NaN,
    cost: 0,
    evaluations: 0,
    permutations: 0,
    error: `case "${id}": step "retriever" threw TypeError: index is undefined`,
  };
}

import type { AnalysisSettings, BatchResult, CaseDef, CaseResult } from '../engine/types.ts';
import type { TableGame } from '../engine/table-game.ts';
import { toSessionGames } from './games.ts';
import type { ModelCacheEntry, Session, SessionContrast, SessionGame, SessionStatus, StudyMark, StudyMeta } from './types.ts';

/** Everything a session is made of; the builder fills in the format, version and defaults. */
export interface SessionParts {
  id: string;
  name: string;
  createdAt: string;
  /** Defaults to now. */
  updatedAt?: string;
  /** Storage revision (0, the default, for a session never stored). */
  revision?: number;
  fileName: string;
  pipeline?: { name: string; source: string } | null;
  cases: CaseDef[];
  /** Game tables as the engine holds them (converted to plain lists; the same list each time for the same games). */
  games?: readonly TableGame[];
  /** Game tables already as plain lists (from another session); used when `games` is absent. */
  storedGames?: SessionGame[];
  settings: AnalysisSettings;
  /** Finished results, in case order. */
  results: CaseResult[];
  batch?: BatchResult | null;
  status: SessionStatus;
  study?: StudyMark;
  modelCache?: ModelCacheEntry[];
  /** The replayed runs' single-step contrast; left out when it has no run. */
  contrast?: SessionContrast;
  /** When the cases were recorded, the pipeline version and tags (docs/trends.md). */
  meta?: StudyMeta;
}

/**
 * The one way to make a Session (the page's autosave and export, the command's --save and
 * --html, merges): optional fields are left out when empty, so a session without games, batch,
 * study mark or model responses is written exactly as before those fields existed.
 */
export function buildSession(parts: SessionParts): Session {
  // Fields in the order the file format lists them, so exported files read top to bottom.
  return {
    format: 'agentblame-session',
    version: 1,
    id: parts.id,
    name: parts.name,
    createdAt: parts.createdAt,
    updatedAt: parts.updatedAt ?? new Date().toISOString(),
    fileName: parts.fileName,
    ...(parts.pipeline && { pipeline: { name: parts.pipeline.name, source: parts.pipeline.source } }),
    cases: parts.cases,
    ...(parts.games && parts.games.length > 0 ? { games: toSessionGames(parts.games as TableGame[]) } : parts.storedGames && parts.storedGames.length > 0 && { games: parts.storedGames }),
    settings: parts.settings,
    results: parts.results,
    ...(parts.batch && { batch: parts.batch }),
    status: parts.status,
    ...(parts.study && { study: parts.study }),
    ...(parts.modelCache && parts.modelCache.length > 0 && { modelCache: parts.modelCache }),
    ...(parts.contrast && parts.contrast.runs.length > 0 && { contrast: parts.contrast }),
    ...(parts.meta && { meta: parts.meta }),
    revision: parts.revision ?? 0,
  };
}

import type { CaseDef } from '../../engine/types.ts';
import type { TableGame } from '../../formats/game.ts';
import type { ModelCacheEntry, SessionContrast, StudyMeta } from '../../session/types.ts';

/** What the user opened: the cases (or precomputed games) and the pipeline definition, if any. */
export interface Study {
  /** The file the cases came from (or "pasted JSON", or the demo's file name). */
  fileName: string;
  /** The pipeline's name, else the file's name. */
  name: string;
  pipeline?: { name: string; source: string };
  /** The definition's own file name when it was opened separately (messages point into it). */
  definitionFile?: string;
  cases: CaseDef[];
  games: TableGame[];
  /**
   * Model responses the session file (or report) it was opened from carried: they answer this
   * study's requests the browser's response store lacks, and stay with its session only.
   */
  modelResponses?: ModelCacheEntry[];
  /** The replayed runs' single-step contrast (the Replay view's), kept with the study's session. */
  contrast?: SessionContrast;
  /** When its cases were recorded, the pipeline version and tags (docs/trends.md), kept with its session. */
  meta?: StudyMeta;
}

/** The name compile errors use for the definition's file. */
export function definitionFileName(study: Study): string {
  return study.definitionFile ?? `${(study.pipeline?.name ?? 'pipeline').replace(/[^\w.-]+/g, '-')}.pipeline.js`;
}

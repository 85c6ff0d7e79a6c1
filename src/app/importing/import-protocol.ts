/** Plain-data messages between the page and its import worker. */
import type { Session } from '../../session/types.ts';
import type { RecordedRunFile, Predictions } from '../../runs/index.ts';

export type ImportedKind = 'trace' | 'game' | 'pipeline' | 'session' | 'runs' | 'predictions';

export interface ImportProgress {
  phase: 'reading' | 'parsing' | 'validating';
  /** Bytes read so far and in all (reading phase). */
  loaded: number;
  total: number;
}

export type ImportOutcome =
  | {
      ok: true;
      kind: ImportedKind;
      /** The pipeline's name when the file names one. */
      name?: string;
      /** A definition bundled with a trace, or the source of a dropped `.js` definition. */
      pipeline?: { name: string; source: string };
      caseCount: number;
      gameCount: number;
      /** A session file or an exported HTML report, validated and migrated. */
      session?: Session;
      /** Recorded runs of real agents (shown in the run view, never analysed as cases). */
      runs?: RecordedRunFile;
      /** A predictions file, scored against the open labelled runs. */
      predictions?: Predictions;
    }
  | { ok: false; problem: ImportProblem };

export interface ImportProblem {
  /** One line that says what is wrong and where. */
  message: string;
  /** JSON path of the problem ('' for the file as a whole). */
  path?: string;
  line?: number;
  column?: number;
}

/** Cases and games cross to the page in chunks of this many, so no single message blocks it long. */
export const IMPORT_CHUNK = 250;

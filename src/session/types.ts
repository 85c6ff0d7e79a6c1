import type { AnalysisSettings, BatchBound, BatchResult, CaseDef, CaseResult } from '../engine/types.ts';
import type { ChatRequest, ModelResponse } from '../engine/model-call.ts';
import type { BatchStopRule } from '../engine/setting-choices.ts';

/** Where a session is in its life: `running` on load means the tab died mid-analysis. */
export type SessionStatus = 'idle' | 'running' | 'done' | 'cancelled';

export const SESSION_STATUSES: readonly SessionStatus[] = ['idle', 'running', 'done', 'cancelled'];

/**
 * A saved analysis: what the user brought, how it was analysed, and what came out.
 * This is the payload of the IndexedDB store, of the exported session file and of the
 * JSON block embedded in the HTML report, so it must stay plain, structured-clone safe data.
 */
export interface SessionV1 {
  format: 'agentblame-session';
  version: 1;
  id: string;
  /** User-editable; defaults to the pipeline's name. */
  name: string;
  createdAt: string;
  updatedAt: string;
  /** The file the cases came from. */
  fileName: string;
  pipeline?: { name: string; source: string };
  cases: CaseDef[];
  /**
   * Game tables (an `agentblame-game` file: outcomes computed elsewhere), analysed like cases and
   * sharing their id space: a result's id names a case or a game. Absent when there are none, so
   * a session without games is written exactly as before this field existed; a reader that
   * predates it refuses a session with games by naming the unknown field `games`, never
   * misreading it, which is why the schema version stays 1.
   */
  games?: SessionGame[];
  settings: AnalysisSettings;
  /** Finished cases (may be partial while an analysis runs or after a reload). */
  results: CaseResult[];
  batch?: BatchResult;
  status: SessionStatus;
  /**
   * Which study this is and which part of it (written by the command; see StudyMark). Optional
   * like `games`, so sessions without it are written as before; a reader that predates it names
   * the unknown field `study` instead of misreading the file.
   */
  study?: StudyMark;
  /**
   * Model responses the results used (model steps), so the session re-analyses with no model.
   * Each entry answers exactly one request: its key is the SHA-256 of the request's canonical JSON.
   */
  modelCache?: ModelCacheEntry[];
  /**
   * The single-step contrast and point of commitment of a replayed run (`--replay --contrast N`,
   * the Replay view), kept beside the Shapley study. Optional and versioned on its own, so a
   * session without it is written as before and a reader that predates it names the unknown
   * field `contrast` instead of misreading the file.
   */
  contrast?: SessionContrast;
  /**
   * When the cases were recorded, the pipeline's version and free tags (docs/trends.md), what the
   * Trends view and `agentblame trend` group studies by. Optional and versioned on its own like
   * `contrast`: a session without it is written as before (and reads as recorded when it was
   * created, see `studyMetaOf`), and a reader that predates it names the unknown field `meta`.
   */
  meta?: StudyMeta;
  /**
   * Storage revision, for optimistic concurrency between tabs: 0 = never stored; every stored
   * write of the session's fields bumps it, and a write carrying an older revision is refused.
   * Not part of the file format (an imported session starts at 0).
   */
  revision: number;
}

/**
 * A session's place in a study split over machines (`--shard i/k`) and how its batch was
 * aggregated, so several session files of one study merge into the unsharded result.
 */
export interface StudyMark {
  /** SHA-256 (hex) of the study: pipeline source, cases, games and settings (studyFingerprint). */
  fingerprint: string;
  /** 1-based shard index and shard count: this session has results for cases j with j mod count = index - 1. */
  shard?: { index: number; count: number };
  /** The batch interval and metric range the batch was aggregated with (a merge re-aggregates with them). */
  batchBound?: BatchBound;
  range?: [number, number];
  /**
   * The batch stop was on (the command's --batch-stop, the page's checkbox): a batch marked as
   * stopped early is complete with fewer results than cases. Absent = off.
   */
  batchStop?: boolean;
  /** How the batch stop decided (the command's --batch-stop bandit, the page's choice). Absent = the plain top-step stop. */
  batchStopRule?: BatchStopRule;
}

/** Where a study's `recordedAt` came from. */
export type RecordedFrom = 'runs' | 'file' | 'given' | 'created';

export const RECORDED_FROM: readonly RecordedFrom[] = ['runs', 'file', 'given', 'created'];

/**
 * A study's place in time and in the pipeline's history (docs/trends.md):
 * - `recordedAt`: when its cases were recorded: the earliest timestamp of the recorded runs
 *   (`runs`), else the input file's date (`file`), else what the user said (`given`: the command's
 *   `--recorded-at`, the page's edit), else when the session was created (`created`);
 * - `pipelineVersion`: a label the user gave (`--pipeline-version`); absent, the version is the
 *   hash of the definition (`pipelineVersionOf`);
 * - `tags`: free labels, `prod` or `key=value` (`model=gpt-4.1`), each at most once.
 */
export interface StudyMeta {
  version: 1;
  recordedAt: string;
  recordedFrom: RecordedFrom;
  pipelineVersion?: string;
  tags: string[];
}

/** The contrast of a study's replayed runs: replays per arm and one entry per run (case id). */
export interface SessionContrast {
  version: 1;
  /** Replays per arm (N of `--contrast N`). */
  replays: number;
  runs: RunContrast[];
}

/** A turn of a replayed run, as the contrast names it (index in the run's turns, step as `--inspect` numbers it). */
export interface ContrastTurn {
  index: number;
  step: number;
  name: string;
  agent: string;
}

/** The failure rate of one arm: failures of n replays, with its 95% Wilson interval. */
export interface ContrastArm {
  failures: number;
  n: number;
  rate: number;
  ci: [number, number];
}

/** One model turn's row: regenerated from it vs kept through it, difference with its 95% Newcombe interval. */
export interface ContrastTurnRow extends ContrastTurn {
  regenerated: ContrastArm;
  kept: ContrastArm;
  difference: number;
  ci: [number, number];
}

/** One run's contrast: the rows per model turn, the point of commitment (null: none), replays that errored. */
export interface RunContrast {
  /** The case id of the run in this session. */
  run: string;
  commitment: ContrastTurn | null;
  contrast: ContrastTurnRow[];
  errors: number;
}

/** One cached model response: the request as sent, its key, and what the endpoint answered. */
export interface ModelCacheEntry {
  key: string;
  request: ChatRequest;
  response: ModelResponse;
}

/**
 * A game table as plain data (a TableGame with its Float64Array as a number array, since typed
 * arrays do not survive JSON): `values[mask]` is v of the coalition whose bit i means players[i]
 * is fixed, so there are 2^players.length values. See src/session/games.ts for the conversions.
 */
export interface SessionGame {
  id: string;
  players: string[];
  values: number[];
  range?: [number, number];
}

/** The current session shape. */
export type Session = SessionV1;

/** The newest schema version; `migrateSession` brings any older one up to it. */
export const SESSION_VERSION = 1;

/**
 * The shape written before version 1 (kept so old files and stores still open): the trace's
 * file name, pipeline and cases were nested under `trace`, the name was `title`, there was one
 * `savedAt` time and no status (a session was "done" when it had a batch result).
 */
export interface SessionV0 {
  format: 'agentblame-session';
  version: 0;
  id: string;
  title?: string;
  savedAt: string;
  trace: { fileName: string; pipeline?: { name: string; source: string }; cases: CaseDef[] };
  settings: AnalysisSettings;
  results: CaseResult[];
  batch?: BatchResult;
}

/** What the "Recent sessions" list shows: read without loading cases or results. */
export interface SessionSummary {
  id: string;
  name: string;
  /** The pipeline's own name, or '' when the session has no pipeline definition. */
  pipelineName: string;
  fileName: string;
  createdAt: string;
  updatedAt: string;
  status: SessionStatus;
  revision: number;
  /** Cases in the session, game tables included (each is analysed as one case). */
  caseCount: number;
  /** Cases with a stored result (finished, with or without error). */
  casesAnalysed: number;
  /** Failing cases analysed without error: the list's "failures analysed". */
  failuresAnalysed: number;
  /** The study's mode and method (absent on summaries stored before they were listed). */
  mode?: AnalysisSettings['mode'];
  method?: AnalysisSettings['method'];
}

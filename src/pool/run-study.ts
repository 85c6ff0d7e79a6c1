/**
 * The study run, once for both hosts (the command's `cli/main.ts` and the page's AnalysisRunner):
 * describe the definition, run its cases and the study's table games in the pool's workers,
 * stop early once the top step separates (when asked), and aggregate the batch.
 */
import { aggregateBatch, BatchStopper, studyBatchOptions } from '../engine/batch.ts';
import type { DefinitionSummary } from '../engine/definition-summary.ts';
import type { TableGame } from '../engine/table-game.ts';
import type { AnalysisSettings, BatchBound, BatchResult, CaseDef, CaseResult } from '../engine/types.ts';
import type { BatchStopRule } from '../engine/setting-choices.ts';
import type { ModelResolver } from './contract.ts';
import type { DefinitionProblem, StudyPool, WorkItem } from './study-pool.ts';

export interface StudyToRun {
  /** The pipeline definition (none for a study of table games only). */
  source?: string;
  /** Its file name, for messages that point at a line. */
  fileName: string;
  /** The cases; undefined: the definition's own (its `cases`). */
  cases?: readonly CaseDef[];
  games?: readonly TableGame[];
}

export interface RunStudyOptions {
  pool: StudyPool;
  study: StudyToRun;
  settings: AnalysisSettings;
  batchBound: BatchBound;
  /**
   * Stop once the top step is separated from every other (BatchStopper): the results are fed to
   * it in the study's order, a few batches at a time, so where it stops does not depend on timing.
   */
  batchStop?: boolean;
  /**
   * How the batch stop decides (default 'top'). 'bandit': the cases run with step runs shared
   * across them (the shareSteps setting), the stop's pair tests bet more boldly, and the batch's
   * intervals are the anytime-valid ones (docs/estimators.md, "The bandit batch stop").
   */
  batchStopRule?: BatchStopRule;
  /** The definition's summary when the host described it already (the page does as it opens a study). */
  summary?: DefinitionSummary;
  /** Called once the definition is described, before any case runs; what it throws ends the run (the command checks its --fix choices). */
  onDescribed?(summary: DefinitionSummary): void;
  model?: ModelResolver;
  /** Rounds of model requests a case may take (a replay's request bound plus one; default MAX_MODEL_ROUNDS). */
  maxModelRounds?: number;
  /** The part of the cases (and of the games) to analyse (a shard); all of them by default. */
  pick?<T>(items: readonly T[]): T[];
  /** Results already known by item index (the picked cases, then games): those are not run again. */
  known?: readonly (CaseResult | undefined)[];
  /** Each new result, by item index, as it arrives (in item order when stopping early). */
  onResult?(index: number, result: CaseResult): void;
  /** Checked before each step of a run: the host's stop button. */
  signal?: AbortSignal;
}

export type StudyOutcome =
  | { status: 'bad-definition'; problem: DefinitionProblem }
  | { status: 'no-cases'; summary: DefinitionSummary | null }
  | {
      status: 'done' | 'cancelled';
      summary: DefinitionSummary | null;
      /** Every case of the study (a shard's session keeps them all). */
      cases: readonly CaseDef[];
      /** By item index (the picked cases, then games); undefined: not analysed (cancelled); stopped early, only up to the stop. */
      results: (CaseResult | undefined)[];
      /** Over the finished results (up to the stop, when stopped early). */
      batch: BatchResult;
      stoppedEarly: boolean;
      /** Stopped early: how many items (from the first) the batch counts; results after them are left out. */
      stoppedAt?: number;
    };

/** The batch over a study's finished results, with the definition's range and threshold (or the first game's range). */
export function studyBatch(
  finished: readonly CaseResult[],
  rangeFrom: { range?: readonly [number, number]; threshold?: number },
  delta: number,
  bound: BatchBound,
  stoppedEarly: boolean,
  rule: BatchStopRule = 'top',
): BatchResult {
  const options = studyBatchOptions(rangeFrom, delta, bound);
  // After a data-dependent stop only the checkpoint intervals keep their guarantee, so a
  // Bernstein batch interval is reported at the anytime confidence the stop was decided with;
  // the bandit stop's intervals are always the anytime-valid ones.
  const anytime = rule === 'bandit' || (stoppedEarly && options.bound === 'bernstein');
  const batch = aggregateBatch(finished, anytime ? { ...options, bound: 'anytime' } : options);
  if (stoppedEarly) batch.stoppedEarly = true;
  return batch;
}

/** Items a run sends between two checks of the batch stop: a few batches per worker. */
export function batchStopChunk(workers: number): number {
  return Math.max(8, workers * 4);
}

export async function runStudy(options: RunStudyOptions): Promise<StudyOutcome> {
  const { pool, study } = options;
  const rule: BatchStopRule = options.batchStop ? (options.batchStopRule ?? 'top') : 'top';
  // The bandit stop shares step runs across cases: the same values, fewer step runs.
  const settings: AnalysisSettings = rule === 'bandit' ? { ...options.settings, shareSteps: true } : options.settings;
  const signal = options.signal ?? new AbortController().signal;
  let summary = options.summary ?? null;
  if (summary === null && study.source !== undefined) {
    const described = await pool.describe(study.source, study.fileName);
    if (!described.ok) return { status: 'bad-definition', problem: described.problem };
    summary = described.summary;
  }
  if (summary !== null) options.onDescribed?.(summary);
  const cases = study.cases ?? summary?.cases ?? [];
  const games = study.games ?? [];
  if (cases.length === 0 && games.length === 0) return { status: 'no-cases', summary };
  const pick = <T>(items: readonly T[]): readonly T[] => (options.pick ? options.pick(items) : items);
  const picked = pick(cases);
  const items: WorkItem[] = [
    ...picked.map((caseDef, index): WorkItem => ({ kind: 'case', index, caseDef })),
    ...pick(games).map((game, k): WorkItem => ({ kind: 'game', index: picked.length + k, game })),
  ];
  const results: (CaseResult | undefined)[] = items.map((item) => options.known?.[item.index]);
  const players = summary ? summary.steps.map((step) => step.name) : [...(games[0]?.players ?? [])];
  const run = (part: readonly WorkItem[], onResult: (index: number, result: CaseResult) => void) =>
    part.length === 0
      ? Promise.resolve(signal.aborted ? ('cancelled' as const) : ('done' as const))
      : pool.run({ items: part, source: study.source, fileName: study.fileName, settings, players, model: options.model, ...(options.maxModelRounds !== undefined && { maxModelRounds: options.maxModelRounds }), onResult }, signal);

  let status: 'done' | 'cancelled' = 'done';
  let stoppedEarly = false;
  let stoppedAt = items.length;
  const missing = items.filter((item) => results[item.index] === undefined);
  if (!options.batchStop) {
    status = await run(missing, (index, result) => {
      results[index] = result;
      options.onResult?.(index, result);
    });
  } else {
    // Results are fed in item order, known ones included, whatever order the workers finish in.
    const stopper = new BatchStopper(studyBatchOptions(summary ?? games[0] ?? {}, settings.delta, options.batchBound, rule));
    const chunk = batchStopChunk(pool.size);
    let arrived = new Map<number, CaseResult>();
    let fed = 0;
    /** Feeds the items before `until`; true once the top step separated. */
    const feedUntil = (until: number): boolean => {
      for (; fed < until; fed++) {
        const fresh = arrived.get(fed);
        if (fresh !== undefined) {
          results[fed] = fresh;
          options.onResult?.(fed, fresh);
        }
        const result = results[fed];
        if (result !== undefined && stopper.push(result)) {
          stoppedEarly = true;
          stoppedAt = fed + 1;
          return true;
        }
      }
      return false;
    };
    for (let start = 0; ; start += chunk) {
      const part = missing.slice(start, start + chunk);
      if (part.length === 0) {
        feedUntil(items.length);
        break;
      }
      // The known results before this part may decide the stop already.
      if (feedUntil(part[0].index)) break;
      arrived = new Map();
      status = await run(part, (index, result) => arrived.set(index, result));
      if (status === 'cancelled') break;
      if (feedUntil(part[part.length - 1].index + 1)) break;
    }
  }
  const counted = stoppedEarly ? results.slice(0, stoppedAt) : results;
  const finished = counted.filter((r): r is CaseResult => r !== undefined);
  const batch = studyBatch(finished, summary ?? games[0] ?? {}, settings.delta, options.batchBound, stoppedEarly, rule);
  return { status, summary, cases, results: counted, batch, stoppedEarly, ...(stoppedEarly ? { stoppedAt } : {}) };
}

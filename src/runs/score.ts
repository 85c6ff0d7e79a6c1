/**
 * Scoring attributions against labelled runs (Who&When): agent accuracy (case-insensitive name
 * match) and step accuracy (exact index match), with Wilson 95% intervals over runs. The
 * benchmark's own evaluate.py matches steps as substrings (a prediction of 7 counts for a label
 * of 17); here only the exact index counts, so figures can be lower than ones computed that way.
 */
import { heuristicPrediction, HEURISTICS, type HeuristicName } from './heuristics.ts';
import type { RecordedRun, RunLabel } from './types.ts';
import { wilsonInterval } from '../engine/stats/wilson-interval.ts';

/** A predictions file: run id -> predicted culprit (either field may be missing). */
export type Predictions = Record<string, { agent?: string; step?: number }>;

export interface Accuracy {
  correct: number;
  n: number;
  rate: number;
  /** Wilson 95% interval over runs. */
  ci: [number, number];
}

export interface ScoreSummary {
  /** Labelled runs scored. */
  runs: number;
  /** Runs with no prediction (they count as wrong). */
  missing: number;
  agent: Accuracy;
  step: Accuracy;
}

export interface ScoredRun {
  id: string;
  group?: string;
  label: RunLabel;
  predicted: { agent?: string; step?: number } | null;
  agentCorrect: boolean;
  stepCorrect: boolean;
}

function accuracy(correct: number, n: number): Accuracy {
  return { correct, n, rate: n === 0 ? 0 : correct / n, ci: wilsonInterval(correct, n) };
}

export function scoreRun(run: RecordedRun & { label: RunLabel }, predicted: { agent?: string; step?: number } | null): ScoredRun {
  return {
    id: run.id,
    ...(run.group ? { group: run.group } : {}),
    label: run.label,
    predicted,
    agentCorrect: predicted?.agent !== undefined && predicted.agent.trim().toLowerCase() === run.label.agent.trim().toLowerCase(),
    stepCorrect: predicted?.step !== undefined && predicted.step === run.label.step,
  };
}

export function summarize(scored: readonly ScoredRun[]): ScoreSummary {
  return {
    runs: scored.length,
    missing: scored.filter((s) => s.predicted === null).length,
    agent: accuracy(scored.filter((s) => s.agentCorrect).length, scored.length),
    step: accuracy(scored.filter((s) => s.stepCorrect).length, scored.length),
  };
}

function labelled(runs: readonly RecordedRun[]): (RecordedRun & { label: RunLabel })[] {
  return runs.filter((r): r is RecordedRun & { label: RunLabel } => r.label !== undefined);
}

/** Scores any predictor over the labelled runs: overall and per group. */
export function scoreRuns(runs: readonly RecordedRun[], predict: (run: RecordedRun) => { agent?: string; step?: number } | null): { all: ScoreSummary; groups: Record<string, ScoreSummary>; runs: ScoredRun[] } {
  const scored = labelled(runs).map((run) => scoreRun(run, predict(run)));
  const groups: Record<string, ScoreSummary> = {};
  for (const group of [...new Set(scored.map((s) => s.group).filter((g): g is string => g !== undefined))].sort()) {
    groups[group] = summarize(scored.filter((s) => s.group === group));
  }
  return { all: summarize(scored), groups, runs: scored };
}

/** Scores a predictions file. */
export function scorePredictions(runs: readonly RecordedRun[], predictions: Predictions) {
  return scoreRuns(runs, (run) => (Object.hasOwn(predictions, run.id) ? predictions[run.id] : null));
}

/**
 * Expected step accuracy of picking a step uniformly at random (the benchmark's "random"
 * baseline, computed exactly rather than sampled): the mean over runs of 1 / number of steps.
 * Agent accuracy: the mean share of steps spoken by the labelled agent.
 */
export function randomBaseline(runs: readonly RecordedRun[]): { runs: number; agent: number; step: number } {
  const list = labelled(runs).filter((r) => r.steps.length > 0);
  if (list.length === 0) return { runs: 0, agent: 0, step: 0 };
  let step = 0;
  let agent = 0;
  for (const run of list) {
    step += 1 / run.steps.length;
    agent += run.steps.filter((s) => (s.agent ?? s.name).toLowerCase() === run.label.agent.toLowerCase()).length / run.steps.length;
  }
  return { runs: list.length, agent: agent / list.length, step: step / list.length };
}

/** Every heuristic scored over the runs. */
export function scoreHeuristics(runs: readonly RecordedRun[]): { name: HeuristicName; label: string; score: ReturnType<typeof scoreRuns> }[] {
  return HEURISTICS.map((h) => ({ ...h, score: scoreRuns(runs, (run) => heuristicPrediction(run, h.name)) }));
}

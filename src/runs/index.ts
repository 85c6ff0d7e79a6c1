/**
 * Recorded runs of real agents (docs/recorded-runs.md): the public API of `src/runs/`. Other
 * folders import the feature only from here (src/architecture.test.ts).
 *
 * `RecordedRun` is the one model every importer builds (`buildRun` from step drafts); views read a
 * step's messages with `readStepMessages`; `scoreRuns` and the heuristics score step attributions
 * against labelled runs; `inspectFiles` / `runText` print runs for the command.
 */
export { buildRun, runUsage } from './build-run.ts';
export { heuristicPrediction, HEURISTICS } from './heuristics.ts';
export { inspectFiles } from './inspect-json.ts';
export { runText } from './inspect-text.ts';
export { readStepMessages } from './messages.ts';
export { callText, nativeMessages, parseJson, sameContent, wireArguments } from './native-messages.ts';
export { recordedParams, type RecordedParams, recordedTools, toolDefinition, type ToolDefinition } from './request-params.ts';
export { type Predictions, randomBaseline, scoreHeuristics, scorePredictions, scoreRuns, type ScoreSummary } from './score.ts';
export type { ChatMessage, MessageSource, RecordedRun, RecordedRunFile, RecordedStep, RunLabel, RunStatus, StepDraft, StepKind, TokenUsage } from './types.ts';

/** The engine's public surface: pure TypeScript, shared by Node, workers and tests. */
export type * from './types.ts';
export { analyzeCase, attribute, COALITION_TABLE_MAX_PLAYERS } from './analyze.ts';
export { analyzeTableGame, TableGameAdapter, type TableGame } from './table-game.ts';
export { aggregateBatch, BatchStopper, analyzedFailures, type BatchOptions } from './batch.ts';
export { validatePipeline, caseInputNames, MAX_PLAYERS } from './pipeline.ts';
export { DEFAULT_SETTINGS, resolveMethod, AUTO_EXACT_MAX_PLAYERS } from './settings.ts';
export { DefinitionError, ReplayError } from './errors.ts';
export { factualRun } from './factual-run.ts';
export { BlameGame } from './blame-game.ts';
export { exactShapley, exactShapleyFromTable } from './shapley/exact.ts';
export { permutationShapley } from './shapley/permutation.ts';
export { seededRng } from './rng.ts';
export { canonicalize } from './canonical.ts';
export { analyzeCaseRound, type CaseRound } from './analyze-round.ts';
export { ModelContext } from './model-context.ts';
export { StepSuspended } from './errors.ts';
export * from './model-call.ts';

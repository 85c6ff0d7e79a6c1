/**
 * Analyse many cases of a sandboxed definition: on the Node worker pool (one worker thread per
 * core, what `npm run blame` uses) or in this thread. Both give identical results.
 */
import { availableParallelism } from 'node:os';
import type { AnalysisSettings, CaseDef, CaseResult } from '../../src/engine/types.ts';
import { analyzeSourceCase } from '../../src/sandbox/analyze-source.ts';
import { NodeAnalysisPool } from '../../src/pool/node/analysis-pool.ts';

export interface CaseRunner {
  readonly workers: number;
  run(cases: readonly CaseDef[], settings: AnalysisSettings): Promise<CaseResult[]>;
  close(): Promise<void>;
}

/** In this thread: no start-up or message cost, one core. */
export function inThreadRunner(source: string, fileName: string): CaseRunner {
  return {
    workers: 0,
    run: async (cases, settings) => cases.map((c) => analyzeSourceCase(source, c, settings, {}, fileName)),
    close: async () => {},
  };
}

/** On the worker pool; `size` defaults to every core. Call `ready()` before timing, so start-up is not counted. */
export async function poolRunner(source: string, fileName: string, size = availableParallelism()): Promise<CaseRunner> {
  const pool = new NodeAnalysisPool({ size, timeoutMs: 120_000, fileName });
  await pool.describe(source);
  return {
    workers: size,
    run: (cases, settings) => pool.run(source, cases, settings),
    close: () => pool.close(),
  };
}

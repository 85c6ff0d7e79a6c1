import type { CaseResult } from '../../engine/types.ts';
import type { StudyPool, WorkItem } from '../study-pool.ts';
import type { NodeAnalysisPool } from './analysis-pool.ts';

/**
 * The command's pool as the study run takes it. Its model host and file name were given when it
 * was made; `keep` turns each result into what the command keeps of it as it arrives, so a long
 * run never holds every case's full result. A bad definition found by a case rejects, as the pool
 * does; the command has no stop button (the signal is not read).
 */
export function nodeStudyPool(pool: NodeAnalysisPool, keep?: (result: CaseResult) => CaseResult): StudyPool {
  return {
    size: pool.size,
    async describe(source) {
      try {
        return { ok: true, summary: await pool.describe(source) };
      } catch (error) {
        return { ok: false, problem: { message: error instanceof Error ? error.message : String(error) } };
      }
    },
    async run(job) {
      const cases = job.items.filter((item): item is Extract<WorkItem, { kind: 'case' }> => item.kind === 'case');
      const games = job.items.filter((item): item is Extract<WorkItem, { kind: 'game' }> => item.kind === 'game');
      if (cases.length > 0 && job.source === undefined) throw new Error('internal: cases to run without a definition');
      await Promise.all([
        cases.length > 0
          ? pool.run(job.source!, cases.map((item) => item.caseDef), job.settings, (k, result) => job.onResult(cases[k].index, result), keep)
          : null,
        games.length > 0 ? pool.runGames(games.map((item) => item.game), job.settings, (k, result) => job.onResult(games[k].index, keep ? keep(result) : result)) : null,
      ]);
      return 'done';
    },
  };
}

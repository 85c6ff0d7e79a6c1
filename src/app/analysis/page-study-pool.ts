/**
 * The page's analysis pool as the study run sees it (src/pool/study-pool.ts): the analysis runner
 * and the contrast replays both run their studies through `runStudy` over it.
 */
import type { PageAnalysisPool } from '../../pool/page/analysis-pool.ts';
import type { StudyPool } from '../../pool/study-pool.ts';

export function pageStudyPool(pool: Pick<PageAnalysisPool, 'load' | 'run'>, size: number): StudyPool {
  return { size, describe: (source, fileName) => pool.load(source, fileName), run: (job, signal) => pool.run(job, signal) };
}

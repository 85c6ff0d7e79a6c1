import { errorResult } from '../../engine/case-result.ts';
import { analyzeTableGame, type TableGame } from '../../engine/table-game.ts';
import type { AnalysisSettings, CaseResult } from '../../engine/types.ts';

/**
 * One table game analysed in a worker (the page's and the command's): its result, or an error
 * result naming why (a game file's values are checked when it is read, so this is rare).
 */
export function analyzeGameInWorker(game: TableGame, settings: AnalysisSettings): CaseResult {
  try {
    return analyzeTableGame(game, settings);
  } catch (error) {
    return errorResult(game.id, game.players, settings, error instanceof Error ? error.message : String(error));
  }
}

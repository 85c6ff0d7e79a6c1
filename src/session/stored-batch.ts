import { aggregateBatch } from '../engine/batch.ts';
import { sumUsage } from '../engine/model-call.ts';
import type { BatchBound, BatchResult } from '../engine/types.ts';
import { toTableGames } from './games.ts';
import type { Session } from './types.ts';

/**
 * A stored session's batch, aggregated again from its cases: a file's `batch` is never shown as
 * it is (any number can be written there), so the command, the report it writes, `--compare`
 * and merges all derive it from the results, as the page does. The study mark gives the metric's
 * range and the bound the batch was aggregated with (a game its table's range); `bound` replaces
 * the latter (`--batch-bound`). A batch that stopped early keeps its flag, and a Bernstein bound
 * is then reported at the anytime confidence, as the run that stopped reported it.
 */
export function recomputedBatch(session: Session, bound?: BatchBound): BatchResult {
  const firstGame = session.games?.[0];
  const range = session.study?.range ?? (firstGame && toTableGames([firstGame])[0].range);
  const stoppedEarly = session.batch?.stoppedEarly === true;
  const chosen = bound ?? session.study?.batchBound ?? 'normal';
  const batch = aggregateBatch(session.results, {
    delta: session.settings.delta,
    bound: stoppedEarly && chosen === 'bernstein' ? 'anytime' : chosen,
    ...(range && { range }),
  });
  if (stoppedEarly) batch.stoppedEarly = true;
  const usage = sumUsage(session.results.map((r) => r.usage));
  if (usage) batch.usage = usage;
  return batch;
}

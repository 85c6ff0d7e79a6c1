/**
 * The study's model cost for its exported report: the requests its results name, read from the
 * responses the exported session carries (withModelResponses put them there), at this browser's
 * prices: what the Batch view's study cost shows, in the report's header.
 */
import type { ReportModelCost } from '../../report/index.ts';
import type { Session } from '../../session/types.ts';
import { requestsCost, type ModelPrice } from '../runs/price-table.svelte.ts';
import { studyRequestKeys } from './study-requests.svelte.ts';

/** Undefined when the study asked no model. */
export function reportModelCost(session: Pick<Session, 'results' | 'modelCache'>, prices: ReadonlyMap<string, ModelPrice>): ReportModelCost | undefined {
  const keys = studyRequestKeys(session.results);
  if (keys.length === 0) return undefined;
  const carried = new Map((session.modelCache ?? []).map((entry) => [entry.key, entry]));
  const found = keys.flatMap((key) => carried.get(key) ?? []);
  const cost = requestsCost(found, prices);
  return {
    cost: cost.cost,
    requests: cost.requests,
    unpriced: cost.unpriced,
    unpricedModels: cost.unpricedModels,
    missing: keys.length - found.length,
    prices: cost.models.flatMap((model) => {
      const price = prices.get(model);
      return price ? [{ model, input: price.input, output: price.output }] : [];
    }),
  };
}

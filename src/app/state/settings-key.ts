import { resolveMethod } from '../../engine/index.ts';
import type { AnalysisSettings } from '../../engine/types.ts';
import { ownValue } from '../../engine/named-record.ts';
import { canonicalize } from '../../engine/canonical.ts';

/**
 * A key naming the analysis that `settings` ask for, holding only the settings that change a
 * case's result. Results are cached under it, so changing a setting re-runs the cases only when it
 * matters, and changing it back shows the earlier results at once:
 * - `worlds` matters only outside recorded mode (recorded replays the case's one world);
 * - the Monte Carlo knobs (delta, stop rule, width, budget, radius, cap, estimator) only when the method
 *   resolves to Monte Carlo for this many steps ('auto' is exact for small pipelines); `width`
 *   only under the width rule;
 * - a step's fix choice only when it is not its default (first) fix;
 * - the model ids of model steps (they enter every request, so every response);
 * - the minimal-repair search (its set size only for Monte Carlo: exact searches every set).
 */
export function settingsKey(settings: AnalysisSettings, defaultFixes: Readonly<Record<string, string>>, stepCount: number): string {
  const fixes = Object.entries(settings.fixChoice ?? {})
    .filter(([step, fix]) => ownValue(defaultFixes, step) !== undefined && ownValue(defaultFixes, step) !== fix)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const method = resolveMethod(settings.method, stepCount, settings.maxPermutations);
  const monteCarlo = method === 'mc';
  return JSON.stringify([
    settings.mode,
    settings.seed,
    method,
    settings.mode === 'recorded' ? null : settings.worlds,
    monteCarlo ? [settings.delta, settings.stop, settings.stop === 'width' ? settings.width : null, String(settings.budget), settings.radius, settings.maxPermutations, settings.estimator, settings.stop === 'top1' || settings.stop === 'ranking' ? (settings.tieTolerance ?? 0) : null] : null,
    fixes,
    settings.interactions === true,
    settings.models ? Object.entries(settings.models).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)) : null,
    // Only when set, so the keys of results cached without a repair search stay as they were.
    ...(settings.repairs ? [['repairs', monteCarlo ? settings.repairs.size : null, settings.repairs.success ?? null]] : []),
    settings.modelParams ? canonicalize(settings.modelParams) : null,
  ]);
}

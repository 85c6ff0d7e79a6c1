import type { ServedModel } from '../engine/model-call.ts';

/**
 * Why a cached answer for `modelId` came from another model than the endpoint serves now, or null:
 * the model file it listed then (`identity`) differs from the one it lists now, or the `model` the
 * answer reported differs from what this run's answers report. The cache key holds the model id,
 * not the model, so such answers are the old model's.
 */
export function servedMismatch(cached: ServedModel | undefined, identityNow: string | null, modelNow: string | null, modelId: string): string | null {
  let then: string | undefined;
  let now: string | undefined;
  if (cached?.identity !== undefined && identityNow !== null && cached.identity !== identityNow) [then, now] = [cached.identity, identityNow];
  else if (cached?.model !== undefined && modelNow !== null && cached.model !== modelNow) [then, now] = [cached.model, modelNow];
  if (then === undefined || now === undefined) return null;
  return `cached answers for model "${modelId}" came from another model (${then}) than the endpoint serves now (${now}): the cache is keyed by the model id, not the model, so they are the old model's answers; start a new response cache (the command: a new --cache file; the page: a new session) to ask the new model`;
}

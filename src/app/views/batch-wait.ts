/**
 * What the Batch view says while a model study has no result yet, instead of an empty chart and a
 * table of dashes: the model requests it waits on (sent, answered, in flight, from the cache) and
 * where they go, or, with no usable endpoint, how many cases and requests wait for one.
 */
import { count, counted } from '../common/format.ts';
import type { ModelActivity } from '../model/page-model-host.svelte.ts';
import type { EndpointWaiting } from '../model/endpoint-wait.svelte.ts';

/** Null when there is nothing model-bound to say (no model study, or results are in). */
export function batchWaitText(activity: ModelActivity | null, waiting: EndpointWaiting | null, running: boolean): string | null {
  const fromCache = activity && activity.cacheHits > 0 ? `; the stored responses answered ${count(activity.cacheHits)}` : '';
  if (waiting !== null && !running) {
    return `No case analysed yet: ${counted(waiting.cases, 'case waits', 'cases wait')} for a model endpoint, with ${counted(waiting.requests, 'request')} no stored response answers${fromCache}. Set the Base URL in Settings › Model (the notice above says how).`;
  }
  if (!activity || !running) return null;
  const answered = activity.done;
  const sent = answered + activity.inFlight;
  const where = activity.endpoint ? ` at ${activity.endpoint}` : '';
  const parts = [
    `${counted(sent, 'request')} sent`,
    `${count(answered)} answered${activity.failed > 0 ? ` (${count(activity.failed)} failed)` : ''}`,
    ...(activity.inFlight > 0 ? [`${count(activity.inFlight)} in flight`] : []),
    ...(activity.queued > 0 ? [`${count(activity.queued)} queued`] : []),
  ];
  const held = activity.held ? ' Paused before sending more: answer the question above.' : '';
  return `No case analysed yet: waiting for the model${where}. ${parts.join(', ')}${fromCache}.${held}`;
}

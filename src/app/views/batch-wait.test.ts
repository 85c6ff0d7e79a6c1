import { describe, expect, it } from 'vitest';
import type { ModelActivity } from '../model/page-model-host.svelte.ts';
import { batchWaitText } from './batch-wait.ts';

const activity = (patch: Partial<ModelActivity> = {}): ModelActivity => ({
  queued: 0,
  inFlight: 0,
  done: 0,
  failed: 0,
  cacheHits: 0,
  held: false,
  usage: { requests: 0, cacheHits: 0, inputTokens: 0, outputTokens: 0 },
  endpoint: 'http://127.0.0.1:8080/v1',
  ...patch,
});

describe('what the Batch view says before a model study has results', () => {
  it('names the endpoint and the requests sent, answered, in flight and queued', () => {
    expect(batchWaitText(activity({ done: 3, failed: 1, inFlight: 2, queued: 4, cacheHits: 5 }), null, true)).toBe(
      'No case analysed yet: waiting for the model at http://127.0.0.1:8080/v1. 5 requests sent, 3 answered (1 failed), 2 in flight, 4 queued; the stored responses answered 5.',
    );
    expect(batchWaitText(activity({ inFlight: 1 }), null, true)).toBe('No case analysed yet: waiting for the model at http://127.0.0.1:8080/v1. 1 request sent, 0 answered, 1 in flight.');
    expect(batchWaitText(activity({ done: 50, queued: 10, held: true }), null, true)).toContain('Paused before sending more');
  });

  it('says how many cases and requests wait when no endpoint is usable', () => {
    expect(batchWaitText(activity({ endpoint: null, cacheHits: 2 }), { cases: 3, requests: 1 }, false)).toBe(
      'No case analysed yet: 3 cases wait for a model endpoint, with 1 request no stored response answers; the stored responses answered 2. Set the Base URL in Settings › Model (the notice above says how).',
    );
  });

  it('says nothing for a study with no model, or once the analysis ended', () => {
    expect(batchWaitText(null, null, true)).toBeNull();
    expect(batchWaitText(activity({ done: 3 }), null, false)).toBeNull();
  });
});

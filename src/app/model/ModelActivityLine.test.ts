import { describe, expect, it } from 'vitest';
import { render } from 'svelte/server';
import ModelActivityLine from './ModelActivityLine.svelte';
import type { ModelActivity } from './page-model-host.svelte.ts';

/** The line's text as a reader sees it (tags dropped, whitespace collapsed). */
function lineText(activity: ModelActivity): string {
  const { body } = render(ModelActivityLine, { props: { activity, running: true, onsend: () => {}, oncancel: () => {} } });
  return body.replace(/<!--[^]*?-->/g, '').replace(/<[^>]+>/g, '').replace(/\s+/g, ' ').trim();
}

describe('ModelActivityLine', () => {
  const activity: ModelActivity = { queued: 0, inFlight: 1, done: 4, failed: 0, cacheHits: 0, held: false, usage: { requests: 4, cacheHits: 0, inputTokens: 0, outputTokens: 0 }, endpoint: null };

  it('keeps a space before the requests in flight', () => {
    expect(lineText(activity)).toContain('Model: 5 requests sent (1 in flight) · 0 answered from the cache');
  });

  it('counts one held request in the singular', () => {
    const held: ModelActivity = { ...activity, queued: 3, inFlight: 0, done: 1, held: true };
    expect(lineText(held)).toContain('Paused before sending more than 1 request:');
  });
});

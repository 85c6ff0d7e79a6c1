import { describe, expect, it } from 'vitest';
import { fromHash, toHash, emptyUrlState } from '../navigation/url-state.ts';
import { trendDigest } from '../../engine/trends.ts';
import { blamedFailures } from '../../engine/testing/trend-results.ts';
import { groupingOf } from './trend-selection.ts';
import { chosenDigests } from './trends-state.svelte.ts';

describe('the Trends view in the address', () => {
  it('round-trips its periods, pipeline and tag (#…&trends=…)', () => {
    const state = { ...emptyUrlState(), session: 's1', view: 'trends', trends: { by: 'tag:model', name: 'refund & co', tag: 'prod' } };
    const hash = toHash(state);
    expect(hash).toContain('trends=tag%3Amodel');
    expect(fromHash(hash).trends).toEqual(state.trends);
    expect(fromHash('view=trends').trends).toBeNull();
    // A stale or edited link reads as weeks rather than failing.
    expect(fromHash('trends=fortnight').trends).toEqual({ by: 'week', name: null, tag: null });
    expect(groupingOf({ by: 'month', name: null, tag: null })).toEqual({ by: 'month' });
  });

  it('keeps the studies of one pipeline, with a tag or a tag key', () => {
    const d = (id: string, name: string, tags: string[]) => trendDigest({ id, name, recordedAt: '2026-02-02T00:00:00Z', pipelineVersion: 'v1', tags }, blamedFailures(id, 2, {}));
    const all = [d('a', 'refund', ['prod', 'model=x']), d('b', 'refund', ['model=y']), d('c', 'triage', ['prod'])];
    expect(chosenDigests(all, 'refund', null).map((x) => x.id)).toEqual(['a', 'b']);
    expect(chosenDigests(all, 'refund', 'prod').map((x) => x.id)).toEqual(['a']);
    expect(chosenDigests(all, 'refund', 'model').map((x) => x.id)).toEqual(['a', 'b']);
    expect(chosenDigests(all, 'refund', 'model=y').map((x) => x.id)).toEqual(['b']);
  });
});

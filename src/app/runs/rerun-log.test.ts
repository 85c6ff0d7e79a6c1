import { describe, expect, it } from 'vitest';
import { FILTER_ABOVE, RerunLog } from './rerun-log.svelte.ts';

const predicate = { tool: 'forward_email' };
const forward = { text: '', toolCalls: [{ name: 'forward_email', arguments: '{"to":"billing@outside.example"}' }] };
const summary = { text: 'An invoice is due within 30 days.', toolCalls: [] };

describe('RerunLog', () => {
  it('lists every rerun with its change to the context, its answer (calls with arguments) and whether it counted as the decision', () => {
    const log = new RerunLog();
    log.add(predicate, { change: 'none' }, [0, 1], [forward, summary]);
    log.add(predicate, { change: 'removed', pieces: [{ id: 'm3:p2', text: 'forward this invoice', whole: false }], fill: '[content removed]' }, [0], [summary]);
    log.add(predicate, { change: 'fix', fix: 'untrusted-content' }, [3], [forward]);
    expect(log.entries.map((e) => [e.variant, e.replicate, e.counted])).toEqual([
      ['unchanged (the recorded context)', 0, true],
      ['unchanged (the recorded context)', 1, false],
      ['without m3:p2 “forward this invoice”', 0, false],
      ['with the fix untrusted-content', 3, true],
    ]);
    expect(log.entries[0].calls).toEqual([{ name: 'forward_email', arguments: '{\n  "to": "billing@outside.example"\n}' }]);
    expect(log.entries[1]).toMatchObject({ text: summary.text, calls: [] });
    expect(log.counted).toBe(2);
  });

  it('filters by counted / not counted once the list is long, and a new run starts empty and unfiltered', () => {
    const log = new RerunLog();
    log.add(predicate, { change: 'none' }, [0, 1, 2], [forward, summary, forward]);
    expect(log.filterable).toBe(false);
    const replicates = Array.from({ length: FILTER_ABOVE }, (_, i) => i);
    log.add(predicate, { change: 'fix', fix: 'both' }, replicates, replicates.map((i) => (i % 2 === 0 ? summary : forward)));
    expect(log.filterable).toBe(true);
    log.filter = 'counted';
    expect(log.shown.every((e) => e.counted)).toBe(true);
    expect(log.shown).toHaveLength(log.counted);
    log.filter = 'not-counted';
    expect(log.shown.every((e) => !e.counted)).toBe(true);
    expect(log.shown).toHaveLength(log.entries.length - log.counted);
    log.filter = 'all';
    expect(log.shown).toHaveLength(3 + FILTER_ABOVE);
    log.filter = 'counted';
    log.clear();
    expect([log.entries.length, log.filter]).toEqual([0, 'all']);
  });
});

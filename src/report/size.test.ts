import { describe, expect, it } from 'vitest';
import { topStep } from './caseOrder.ts';
import { extractSessionFromReport } from '../session/extract-session.ts';
import { syntheticSession } from './fixtures/syntheticSession.ts';
import { DEFAULT_MAX_BYTES, renderReport } from './renderReport.ts';
import { utf8Length } from './utf8.ts';

const shownIds = (html: string) => [...html.matchAll(/<span class="case-id">([^<]*)<\/span>/g)].map((m) => m[1]);

describe('report size', () => {
  it('keeps a 1 000-case batch under 3 MB, listing the most-blamed cases and saying how many it left out', () => {
    const session = syntheticSession({ cases: 1000, players: 5, monteCarloEvery: 10 });
    const html = renderReport(session);
    expect(utf8Length(html)).toBeLessThanOrEqual(DEFAULT_MAX_BYTES);
    const ids = shownIds(html);
    expect(ids.length).toBeGreaterThan(20);
    expect(ids.length).toBeLessThan(1000);
    expect(html).toContain(`the drill-down shows the ${ids.length} most-blamed of 1\u2009000 cases`);
    expect(html).toContain(`leaves out ${1000 - ids.length}.`);
    // The shown cases are failures whose top Shapley value is at least that of any case left out.
    const byId = new Map(session.results.map((r) => [r.id, r]));
    const shownTop = Math.min(...ids.map((id) => topStep(byId.get(id)!)!.value));
    const hidden = session.results.filter((r) => r.failed && !ids.includes(r.id));
    expect(Math.max(...hidden.map((r) => topStep(r)!.value))).toBeLessThanOrEqual(shownTop);
    expect(ids.every((id) => byId.get(id)!.failed)).toBe(true);
    // The embedded session is whole here: it fits beside the drill-down.
    expect((extractSessionFromReport(html) as { results: unknown[] }).results).toHaveLength(1000);
    expect(html).not.toContain('The session data inside this file leaves out');
  });

  it('drops coalition tables and histories from the embedded copy when they alone would break the target, and says so', () => {
    const session = syntheticSession({ cases: 1000, players: 8, monteCarloEvery: 10 });
    const html = renderReport(session);
    expect(utf8Length(html)).toBeLessThanOrEqual(DEFAULT_MAX_BYTES);
    expect(html).toContain('The session data inside this file leaves out the per-case coalitions, history');
    const embedded = extractSessionFromReport(html) as { results: Record<string, unknown>[] };
    expect(embedded.results).toHaveLength(1000);
    expect(embedded.results[0].coalitions).toBeUndefined();
    expect(embedded.results[0].shapley).toEqual(session.results[0].shapley);
    expect(embedded.results[0].factualOutputs).toEqual(session.results[0].factualOutputs);
  });

  it('shows every case when the batch is small', () => {
    const html = renderReport(syntheticSession({ cases: 12, players: 4 }));
    expect(shownIds(html)).toHaveLength(12);
    expect(html).not.toContain('most-blamed of');
  });

  it('respects a smaller size target', () => {
    const html = renderReport(syntheticSession({ cases: 200, players: 4 }), { maxBytes: 400_000 });
    expect(utf8Length(html)).toBeLessThanOrEqual(400_000);
    expect(html).toContain('most-blamed of 200 cases');
  });
});

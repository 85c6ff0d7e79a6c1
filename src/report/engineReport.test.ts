import { describe, expect, it } from 'vitest';
import { aggregateBatch, analyzeCase, DEFAULT_SETTINGS } from '../engine/index.ts';
import { refundPipeline } from '../engine/testing/refund.ts';
import type { Session } from '../session/types.ts';
import { renderReport } from './renderReport.ts';

describe('renderReport on engine output', () => {
  it('shows the engine’s refund analysis: 5/12 for planner and retriever, reviewer last to touch', () => {
    const pipeline = refundPipeline('A');
    const result = analyzeCase(pipeline, { id: 'q1', inputs: { question: 'refund window?' }, seed: 1 }, DEFAULT_SETTINGS);
    const batch = aggregateBatch([result], { delta: DEFAULT_SETTINGS.delta, bound: 'bernstein' });
    const session: Session = {
      format: 'agentblame-session', version: 1, id: 's', name: 'refund', createdAt: '2026-01-01T00:00:00Z', updatedAt: '2026-01-01T00:00:00Z',
      fileName: 'refund.trace.json', pipeline: { name: pipeline.name, source: '' }, cases: [{ id: 'q1', inputs: {} }],
      settings: DEFAULT_SETTINGS, results: [result], batch, status: 'done', revision: 0,
    };
    const html = renderReport(session);
    const row = (step: string) => html.match(new RegExp(`<tr><td>${step}</td><td class="num[^"]*" data-v="[^"]*">([^<]*)</td>`))?.[1];
    expect(row('planner')).toBe('+0.417');
    expect(row('retriever')).toBe('+0.417');
    expect(row('writer')).toBe('+0.083');
    expect(row('reviewer')).toBe('+0.083');
    expect(html).toContain('<dt>Last step to touch</dt><dd>reviewer</dd>');
  });
});

import { describe, expect, it } from 'vitest';
import { requestKey, type ChatRequest } from '../../engine/model-call.ts';
import { toyAnswer } from '../../engine/testing/toy-model.ts';
import { testResult } from '../../engine/testing/results.ts';
import { renderReport } from '../../report/index.ts';
import { refundSession } from '../../report/fixtures/refundSession.ts';
import type { ModelPrice } from '../runs/price-table.svelte.ts';
import { reportModelCost } from './report-model-cost.ts';

const entry = (model: string, text: string) => {
  const request: ChatRequest = { model, messages: [{ role: 'user', content: text }], temperature: 0 };
  const response = toyAnswer(request);
  return { key: requestKey(request), request, response: { ...response, usage: { input: 1_000, output: 500 } } };
};

/** The refund session as if its cases had asked models: three requests, one of them not carried. */
function modelSession() {
  const [a, b, c, lost] = [entry('gpt-4.1-mini', 'one'), entry('gpt-4.1-mini', 'two'), entry('judge', 'three'), entry('gpt-4.1-mini', 'lost')];
  const base = refundSession();
  const results = [{ ...base.results[0], modelKeys: [a.key, b.key] }, { ...testResult({ id: 'c2', players: ['planner'], shapley: { planner: 1 } }), modelKeys: [b.key, c.key, lost.key] }];
  return { ...base, results, modelCache: [a, b, c] };
}

const PRICES: ReadonlyMap<string, ModelPrice> = new Map([['gpt-4.1-mini', { input: 0.4, output: 1.6 }]]);

describe('the study cost in the report', () => {
  it('counts each request the results name once, at the prices set, and names what it leaves out', () => {
    const cost = reportModelCost(modelSession(), PRICES)!;
    // Two gpt-4.1-mini requests of 1 000 tokens in and 500 out: 2 x (0.0004 + 0.0008) dollars.
    expect(cost).toEqual({ cost: 0.0024, requests: 3, unpriced: 1, unpricedModels: ['judge'], missing: 1, prices: [{ model: 'gpt-4.1-mini', input: 0.4, output: 1.6 }] });
    expect(reportModelCost(refundSession(), PRICES)).toBeUndefined();
  });

  it('is shown in the report header beside the model requests, and only when some request has a price', () => {
    const session = modelSession();
    const html = renderReport(session, { modelCost: reportModelCost(session, PRICES) });
    expect(html).toContain('<dt>Model cost</dt><dd>$0.00240 for 2 requests at the workbench’s prices per 1M tokens (gpt-4.1-mini: $0.40 in, $1.60 out); not counting 1 (no price for judge); 1 request not in the response store, not counted</dd>');
    expect(renderReport(session, { modelCost: reportModelCost(session, new Map()) })).not.toContain('Model cost');
  });
});

/**
 * A waiting resolver (ModelContext, docs/method.md "Model steps"): a miss answered on the spot
 * instead of suspending the round. One round then gives the result restarting rounds give; a
 * resolver that declines leaves the round to suspend as without one.
 */
import { describe, expect, it } from 'vitest';
import { analyzeCaseRound } from './analyze-round.ts';
import type { ModelAnswer, PendingRequest } from './model-call.ts';
import { validatePipeline } from './pipeline.ts';
import { DEFAULT_SETTINGS } from './settings.ts';
import { runRounds, toyAnswer } from './testing/toy-model.ts';
import type { AnalysisSettings, Llm, StepTools } from './types.ts';

const settings: AnalysisSettings = { ...DEFAULT_SETTINGS, method: 'exact', mode: 'recorded', models: { default: 'toy-1' } };
const llmOf = (tools: StepTools | undefined): Llm => tools!.llm;

/** Two steps, each a chain of three requests quoting the answer before. */
const chained = validatePipeline({
  name: 'chained',
  steps: ['plan', 'act'].map((name, k) => ({
    name,
    inputs: k === 0 ? ['ticket'] : ['plan'],
    cost: 1,
    run: (inputs: Record<string, unknown>, _noise: unknown, tools: StepTools | undefined) => {
      let text = String(inputs[k === 0 ? 'ticket' : 'plan']);
      for (let i = 0; i < 3; i++) text = llmOf(tools).chat({ messages: [{ role: 'user', content: `${name} ${i}: ${text}` }], temperature: 0 }).text;
      return text;
    },
    fixes: [{ name: 'canned', cost: 1, run: () => 'alpha' }],
  })),
  metric: (outputs) => (outputs.act === 'alpha' ? 1 : 0),
});
const ticket = { id: 'c1', inputs: { ticket: 'order 7 arrived broken' } };

describe('a waiting resolver', () => {
  it('answers every miss in one round: the result and requests of the restarting rounds', () => {
    const restarted = runRounds(chained, ticket, settings);
    expect(restarted.rounds).toBeGreaterThan(3);
    const asked: PendingRequest[] = [];
    const round = analyzeCaseRound(chained, ticket, settings, new Map(), {}, (request) => {
      asked.push(request);
      return toyAnswer(request.request);
    });
    expect(round.kind).toBe('result');
    if (round.kind !== 'result') return;
    expect(round.result).toEqual(restarted.result);
    expect(asked.map((r) => r.key).sort()).toEqual(restarted.sent.map((r) => r.key).sort());
    expect(new Set(asked.map((r) => r.key)).size).toBe(asked.length);
  });

  it('once it declines, the round suspends as without it and it is asked nothing more', () => {
    let calls = 0;
    const round = analyzeCaseRound(chained, ticket, settings, new Map<string, ModelAnswer>(), {}, (request) => (++calls === 2 ? null : toyAnswer(request.request)));
    expect(calls).toBe(2);
    expect(round.kind).toBe('pending');
  });

  it('a failure it gives fails the case naming the step, as a failed fetch does in a restarting round', () => {
    const failing = (): ModelAnswer => ({ error: 'HTTP 500 from http://127.0.0.1:9/v1/chat/completions: overloaded' });
    const round = analyzeCaseRound(chained, ticket, settings, new Map(), {}, failing);
    const restarted = runRounds(chained, ticket, settings, failing);
    expect(round.kind).toBe('result');
    if (round.kind !== 'result') return;
    expect(round.result.error).toMatch(/step "plan".*failed: HTTP 500/);
    expect(round.result).toEqual(restarted.result);
  });
});

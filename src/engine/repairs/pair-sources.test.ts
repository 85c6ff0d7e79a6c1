import { describe, expect, it } from 'vitest';
import { chooseRequest } from '../step-llm.ts';
import type { ModelResponse } from '../model-call.ts';
import { requestOfOutput, type PairRequestEntry } from './pair-sources.ts';

const OPTIONS = ['refund', 'escalate', 'close\nfor good'];

/** A choose entry whose answer gives the letters these log-probabilities. */
function choose(key: string, content: string, logprobs: Record<string, number>): PairRequestEntry {
  const request = chooseRequest({ messages: [{ role: 'user', content }], options: OPTIONS }, OPTIONS, 'm');
  const response: ModelResponse = { text: 'A', finish: 'length', usage: { input: 1, output: 1 }, topLogprobs: Object.entries(logprobs).map(([token, logprob]) => ({ token, logprob })) };
  return { key, request, response };
}

describe('the request behind a model step\'s output', () => {
  const factual = choose('f', 'Ticket', { A: Math.log(0.2), B: Math.log(0.7), C: Math.log(0.1) });
  const fix = choose('x', 'PREFER:refund Ticket', { A: Math.log(0.9), B: Math.log(0.05), C: Math.log(0.05) });
  const chat: PairRequestEntry = { key: 'c', request: { model: 'm', messages: [{ role: 'user', content: 'say A' }] }, response: { text: 'A', finish: 'stop', usage: { input: 1, output: 1 } } };

  it('finds a choose request by the option chosen, not by its letter', () => {
    expect(requestOfOutput([chat, factual], 'escalate')?.key).toBe('f');
    // An option spanning lines is read whole.
    expect(requestOfOutput([factual], 'close\nfor good')?.key).toBe('f');
    expect(requestOfOutput([factual], 'close')).toBeNull();
  });

  it('among choose requests listing the option, takes the one giving it the highest probability', () => {
    expect(requestOfOutput([fix, factual], 'escalate')?.key).toBe('f');
    expect(requestOfOutput([factual, fix], 'refund')?.key).toBe('x');
  });

  it('matches a chat request by its text, never a choose request by its letter', () => {
    expect(requestOfOutput([factual, chat], 'A')?.key).toBe('c');
    expect(requestOfOutput([factual], 'A')).toBeNull();
  });
});

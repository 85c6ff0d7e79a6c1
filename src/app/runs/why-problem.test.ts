import { describe, expect, it } from 'vitest';
import { whyProblem } from './why-problem.ts';

describe('whyProblem', () => {
  const ok = { call: { predicate: 'x' }, hasModel: true, urlProblem: null, model: 'm' };

  it('points an endpoint problem at the panel\'s own Endpoint field, never the Model panel', () => {
    const message = whyProblem({ ...ok, urlProblem: 'Set the base URL of an OpenAI-compatible endpoint.' });
    expect(message).toBe('Endpoint (above): Set the base URL of an OpenAI-compatible endpoint.');
    expect(message).not.toMatch(/Model panel/);
  });

  it('gives the call\'s own reason first, then the missing connection, then the missing model id', () => {
    expect(whyProblem({ ...ok, call: 'Step 3 is not a model call.', urlProblem: 'bad' })).toBe('Step 3 is not a model call.');
    expect(whyProblem({ ...ok, hasModel: false, urlProblem: 'bad' })).toBe('No model connection in this page.');
    expect(whyProblem({ ...ok, model: '' })).toBe('This step records no model: name one.');
    expect(whyProblem(ok)).toBeNull();
  });
});

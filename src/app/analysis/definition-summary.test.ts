import { describe, expect, it } from 'vitest';
import { describeProblem } from './definition-summary.ts';

describe('describeProblem', () => {
  it('finds the line and column of the user file in the message', () => {
    const problem = describeProblem(new Error('refund.js:12:5: Unexpected token'), 'refund.js');
    expect(problem).toEqual({ message: 'refund.js:12:5: Unexpected token', line: 12, column: 5 });
  });
  it('keeps a message without a position as it is', () => {
    expect(describeProblem(new Error('pipeline.js: step "writer" reads unknown input "x"'))).toEqual({ message: 'pipeline.js: step "writer" reads unknown input "x"' });
  });
  it('accepts a thrown non-error', () => {
    expect(describeProblem('boom')).toEqual({ message: 'boom' });
  });
});

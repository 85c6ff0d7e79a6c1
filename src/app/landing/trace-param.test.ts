import { describe, expect, it } from 'vitest';
import { traceUrlFromQuery } from './trace-param.ts';

const base = 'https://tools.example.org/agentblame/index.html';

describe('traceUrlFromQuery', () => {
  it('resolves a relative path next to the build', () => {
    const found = traceUrlFromQuery('?trace=demos/refund-policy.trace.json', base);
    expect(found).toEqual({ url: new URL('https://tools.example.org/agentblame/demos/refund-policy.trace.json') });
  });
  it('refuses another origin, naming it', () => {
    const found = traceUrlFromQuery('?trace=https://evil.example.com/x.json', base);
    expect(found && 'error' in found ? found.error : '').toContain('https://evil.example.com');
    expect(traceUrlFromQuery('?trace=//evil.example.com/x.json', base)).toHaveProperty('error');
  });
  it('ignores a missing or empty parameter', () => {
    expect(traceUrlFromQuery('', base)).toBeNull();
    expect(traceUrlFromQuery('?trace=', base)).toBeNull();
  });
});

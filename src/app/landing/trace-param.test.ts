import { describe, expect, it } from 'vitest';
import { traceResponseProblem, traceUrlFromQuery } from './trace-param.ts';

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

describe('traceResponseProblem', () => {
  const url = new URL('https://tools.example.org/agentblame/demos/missing.trace.json');
  const answer = (status: number, contentType: string | null) => ({ ok: status >= 200 && status < 300, status, statusText: status === 404 ? 'Not Found' : 'OK', contentType });
  it('says that nothing is there, for a 404 and for a host that answers every path with its own page', () => {
    expect(traceResponseProblem(url, answer(404, 'text/html'))).toBe('There is no file at /agentblame/demos/missing.trace.json on this site (404 Not Found).');
    expect(traceResponseProblem(url, answer(200, 'text/html; charset=utf-8'))).toContain('There is no file at /agentblame/demos/missing.trace.json');
  });
  it('accepts the file, and an HTML report asked for by name', () => {
    expect(traceResponseProblem(url, answer(200, 'application/json'))).toBeNull();
    expect(traceResponseProblem(new URL('https://tools.example.org/agentblame/study.html'), answer(200, 'text/html'))).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { pageWords } from './page-words.ts';

describe('pageWords', () => {
  it('keeps the page\'s half of a message written for the command and the page, and drops a hint for the command alone', () => {
    expect(pageWords('raise the time per request (the command: --timeout-request S; the page: Model > Time per request) or lower the requests in flight (the command: --concurrency 1; the page: Model > Requests at once)')).toBe('raise the time per request (Model > Time per request) or lower the requests in flight (Model > Requests at once)');
    expect(pageWords('no model endpoint is set up to ask (the command: --model-url URL; the page: Settings > Model)')).toBe('no model endpoint is set up to ask (Settings > Model)');
    expect(pageWords('alias "judge" has no model: map it (the command: --model judge=ID)')).toBe('alias "judge" has no model: map it');
    expect(pageWords('the endpoint answered HTTP 400: "tools param requires --jinja flag"')).toBe('the endpoint answered HTTP 400: "tools param requires --jinja flag"');
  });
});

import { describe, expect, it } from 'vitest';
import { pageWords } from './page-words.ts';

describe('pageWords', () => {
  // The page's half of a message written for the command and the page is kept; a hint for the command alone is dropped.
  it.each([
    ['raise the time per request (the command: --timeout-request S; the page: Model > Time per request) or lower the requests in flight (the command: --concurrency 1; the page: Model > Requests at once)', 'raise the time per request (Model > Time per request) or lower the requests in flight (Model > Requests at once)'],
    ['no model endpoint is set up to ask (the command: --model-url URL; the page: Settings > Model)', 'no model endpoint is set up to ask (Settings > Model)'],
    ['alias "judge" has no model: map it (the command: --model judge=ID)', 'alias "judge" has no model: map it'],
    ['the endpoint answered HTTP 400: "tools param requires --jinja flag"', 'the endpoint answered HTTP 400: "tools param requires --jinja flag"'],
  ])('keeps the page\'s half of %s', (message, shown) => {
    expect(pageWords(message)).toBe(shown);
  });
});

import { describe, expect, it } from 'vitest';
import { parseChatResponse } from './parse-chat-response.ts';
import { validateModelResponse } from './validate-cache-entry.ts';

describe('tool calls in a chat answer', () => {
  const body = (message: Record<string, unknown>) => JSON.stringify({ choices: [{ message, finish_reason: 'tool_calls' }], usage: { prompt_tokens: 3, completion_tokens: 2 } });

  it('reads choices[0].message.tool_calls as { id, name, arguments } (arguments as the endpoint wrote them)', () => {
    const r = parseChatResponse(body({ role: 'assistant', content: null, tool_calls: [{ id: 'a', type: 'function', function: { name: 'search', arguments: '{"q":"x"}' } }, { type: 'function', function: { name: 'now', arguments: {} } }] }));
    expect(r).toEqual({ text: '', finish: 'tool_calls', usage: { input: 3, output: 2 }, toolCalls: [{ id: 'a', name: 'search', arguments: '{"q":"x"}' }, { name: 'now', arguments: '{}' }] });
  });

  it('leaves them out when there are none, and names the path of a malformed one', () => {
    expect(parseChatResponse(body({ role: 'assistant', content: 'hi', tool_calls: [] })).toolCalls).toBeUndefined();
    expect(() => parseChatResponse(body({ role: 'assistant', content: '', tool_calls: [{ function: { arguments: '{}' } }] }))).toThrow(/choices\[0\]\.message\.tool_calls\[0\]\.function\.name is not a string/);
  });

  it('a cached answer keeps its tool calls, and a malformed one is refused naming its path', () => {
    const cached = { text: '', finish: 'tool_calls', usage: { input: 1, output: 1 }, toolCalls: [{ name: 'search', arguments: '{}' }] };
    expect(validateModelResponse(cached, 'response')).toEqual(cached);
    expect(() => validateModelResponse({ ...cached, toolCalls: [{ name: 'search' }] }, 'response')).toThrow(/response\.toolCalls\[0\]/);
  });
});

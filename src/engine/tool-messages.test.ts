import { describe, expect, it } from 'vitest';
import { requestKey, type ChatRequest } from './model-call.ts';
import { ModelContext } from './model-context.ts';
import { createStepNoise, WorldNoise } from './noise.ts';
import { chatRequest, StepLlm } from './step-llm.ts';
import { checkCacheEntry } from './validate-cached-response.ts';

const seed = () => 7;
const call = { id: 'call_1', type: 'function' as const, function: { name: 'lookup_order', arguments: '{"order_id":"H-1"}' } };

describe('llm.chat messages with tool calls (OpenAI shape)', () => {
  it('sends assistant tool_calls and tool results with their tool_call_id, and top_p as given', () => {
    const request = chatRequest({ messages: [{ role: 'user', content: 'refund?' }, { role: 'assistant', content: '', tool_calls: [call] }, { role: 'tool', content: '{"total":420}', tool_call_id: 'call_1' }], temperature: 0.2, top_p: 0.9 }, 'm', seed);
    expect(request.messages[1]).toEqual({ role: 'assistant', content: '', tool_calls: [call] });
    expect(request.messages[2]).toEqual({ role: 'tool', content: '{"total":420}', tool_call_id: 'call_1' });
    expect(request.top_p).toBe(0.9);
  });

  it('refuses malformed tool calls, naming the message', () => {
    expect(() => chatRequest({ messages: [{ role: 'assistant', content: '', tool_calls: [{ id: 'x', type: 'function', function: { name: 'f', arguments: {} as unknown as string } }] }] }, 'm', seed)).toThrow('llm.chat: messages[0].tool_calls[0] must be { id, type: "function", function: { name, arguments } }');
    expect(() => chatRequest({ messages: [{ role: 'user', content: 'x', tool_calls: [call] }] }, 'm', seed)).toThrow('messages[0].tool_calls: only an assistant message makes tool calls');
    expect(() => chatRequest({ messages: [{ role: 'user', content: 'x', tool_call_id: 'call_1' }] }, 'm', seed)).toThrow('messages[0].tool_call_id must be a non-empty string on a tool message');
    expect(() => chatRequest({ messages: [{ role: 'user', content: 'x' }], top_p: 0 }, 'm', seed)).toThrow('top_p must be a number above 0 and at most 1');
  });

  it('keeps such requests and answers with call ids through the response cache', () => {
    const request: ChatRequest = { model: 'm', messages: [{ role: 'assistant', content: '', tool_calls: [call] }, { role: 'tool', content: 'ok', tool_call_id: 'call_1' }], top_p: 0.5 };
    const entry = { key: requestKey(request), request, response: { text: '', finish: 'tool_calls', usage: { input: 1, output: 1 }, toolCalls: [{ id: 'call_9', name: 'reply', arguments: '{}' }] } };
    expect(checkCacheEntry(JSON.parse(JSON.stringify(entry)), 'entry', (path, detail) => new Error(`${path}: ${detail}`))).toEqual(entry);
  });

  it('lets an alias cap max_tokens over the call\'s own, for chats only', () => {
    const world = new WorldNoise(1);
    const context = new ModelContext(new Map(), { default: 'm' }, () => ({ max_tokens: 64, top_k: 1 }));
    const llm = new StepLlm(world, 's', createStepNoise(world, 's'), context);
    expect(() => llm.chat({ messages: [{ role: 'user', content: 'hi' }], max_tokens: 400, temperature: 0 })).toThrow();
    expect(() => llm.choose({ messages: [{ role: 'user', content: 'hi' }], options: ['a', 'b'] })).toThrow();
    const [chat, choose] = [...context.pending.values()].map((p) => p.request);
    expect(chat.max_tokens).toBe(64);
    expect(chat.params).toEqual({ top_k: 1 });
    expect(choose.max_tokens).toBe(1);
  });
});

import { describe, expect, it } from 'vitest';
import { readMessages, readStepMessages } from './messages.ts';

describe('readMessages', () => {
  it('reads OTel GenAI parts messages from JSON text, with tool calls and tool results', () => {
    const value = JSON.stringify([
      { role: 'user', parts: [{ type: 'text', content: 'Weather?' }] },
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'get_weather', arguments: { city: 'Paris' } }] },
      { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c1', response: 'sunny' }] },
    ]);
    expect(readMessages({ form: 'value', value }, {}, 'user')).toEqual([
      { role: 'user', text: 'Weather?' },
      { role: 'assistant', text: '', toolCalls: [{ id: 'c1', name: 'get_weather', arguments: '{\n  "city": "Paris"\n}' }] },
      { role: 'tool', text: 'sunny', toolCallId: 'c1' },
    ]);
  });

  it('reads OpenAI chat messages with tool_calls and doubly encoded arguments', () => {
    const value = { messages: [{ role: 'assistant', content: null, tool_calls: [{ id: 'x', type: 'function', function: { name: 'f', arguments: '{"a":1}' } }] }, { role: 'tool', tool_call_id: 'x', content: 'ok' }] };
    expect(readMessages({ form: 'value', value: JSON.stringify(JSON.stringify(value)) }, {}, 'user')).toEqual([
      { role: 'assistant', text: '', toolCalls: [{ id: 'x', name: 'f', arguments: '{"a":1}' }] },
      { role: 'tool', text: 'ok', toolCallId: 'x' },
    ]);
  });

  it('keeps text that is not JSON as it is, and broken JSON as raw text', () => {
    expect(readMessages({ form: 'value', value: 'plain answer', role: 'assistant' }, {}, 'user')).toEqual([{ role: 'assistant', text: 'plain answer' }]);
    expect(readMessages({ form: 'value', value: '[{"role": "user", "content": "cut' }, {}, 'user')).toEqual([{ role: 'user', text: '[{"role": "user", "content": "cut' }]);
  });

  it('rebuilds OpenInference flattened messages in numeric order (10 after 2)', () => {
    const attributes: Record<string, unknown> = {};
    for (let i = 0; i < 12; i++) {
      attributes[`llm.input_messages.${i}.message.role`] = i % 2 ? 'assistant' : 'user';
      attributes[`llm.input_messages.${i}.message.content`] = `m${i}`;
    }
    attributes['llm.input_messages.1.message.tool_calls.0.tool_call.function.name'] = 'lookup';
    attributes['llm.input_messages.1.message.tool_calls.0.tool_call.function.arguments'] = '{}';
    const messages = readStepMessages({ input: { form: 'flat', scheme: 'openinference', prefix: 'llm.input_messages' }, attributes }, 'input');
    expect(messages.map((m) => m.text)).toEqual(Array.from({ length: 12 }, (_, i) => `m${i}`));
    expect(messages[1].toolCalls).toEqual([{ id: undefined, name: 'lookup', arguments: '{}' }]);
  });

  it('reads the deprecated gen_ai.prompt.N attributes', () => {
    const attributes = { 'gen_ai.prompt.0.role': 'system', 'gen_ai.prompt.0.content': 'Be brief.', 'gen_ai.prompt.1.role': 'user', 'gen_ai.prompt.1.content': 'Hi' };
    expect(readMessages({ form: 'flat', scheme: 'genai', prefix: 'gen_ai.prompt' }, attributes, 'user')).toEqual([
      { role: 'system', text: 'Be brief.' },
      { role: 'user', text: 'Hi' },
    ]);
  });
});

describe('outputs that are chat, not raw JSON', () => {
  it('a Responses API response: message items as assistant text, function calls as tool calls, reasoning left out', () => {
    const value = {
      id: 'resp_1',
      object: 'response',
      output: [
        { type: 'reasoning', id: 'rs_1', summary: [] },
        { type: 'function_call', call_id: 'call_9', name: 'read_policy', arguments: '{"section":"refunds"}' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Within 30 days.' }] },
      ],
    };
    expect(readMessages({ form: 'value', value }, {}, 'assistant')).toEqual([
      { role: 'assistant', text: '', toolCalls: [{ id: 'call_9', name: 'read_policy', arguments: '{"section":"refunds"}' }] },
      { role: 'assistant', text: 'Within 30 days.' },
    ]);
  });

  it('a bare list of tool calls (OpenAI or the AI SDK) is one assistant message calling them', () => {
    expect(readMessages({ form: 'value', value: JSON.stringify([{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }]) }, {}, 'assistant')).toEqual([{ role: 'assistant', text: '', toolCalls: [{ id: 'c1', name: 'f', arguments: '{}' }] }]);
    expect(readMessages({ form: 'value', value: [{ toolCallType: 'function', toolCallId: 't1', toolName: 'lookup', args: { q: 'x' } }] }, {}, 'assistant')).toEqual([{ role: 'assistant', text: '', toolCalls: [{ id: 't1', name: 'lookup', arguments: '{\n  "q": "x"\n}' }] }]);
  });

  it("LangChain's serialised messages and generations (LangSmith run lists) read as chat", () => {
    const ai = { lc: 1, type: 'constructor', id: ['langchain', 'schema', 'messages', 'AIMessage'], kwargs: { content: '', tool_calls: [{ id: 'k1', name: 'search', args: { q: 'refund' } }] } };
    const human = { lc: 1, type: 'constructor', id: ['langchain', 'schema', 'messages', 'HumanMessage'], kwargs: { content: 'When?' } };
    expect(readMessages({ form: 'value', value: { messages: [[human]] } }, {}, 'user')).toEqual([{ role: 'user', text: 'When?' }]);
    expect(readMessages({ form: 'value', value: { generations: [[{ text: '', message: ai }]] } }, {}, 'assistant')).toEqual([{ role: 'assistant', text: '', toolCalls: [{ id: 'k1', name: 'search', arguments: '{\n  "q": "refund"\n}' }] }]);
  });

  it("a tool's result wrapped in {output} is the tool's text, not a JSON dump", () => {
    expect(readMessages({ form: 'value', value: { output: 'Refunds within 30 days.' }, role: 'tool' }, {}, 'assistant')).toEqual([{ role: 'tool', text: 'Refunds within 30 days.' }]);
  });
});

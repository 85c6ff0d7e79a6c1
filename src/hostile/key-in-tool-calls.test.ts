/**
 * An endpoint that writes the API key with `\u` escapes gets past a mask on the raw body; once
 * decoded, the key is in clear. Every field of the parsed response (text, tool call names and
 * arguments, decoded again as the JSON they are, the served model, tokens) is masked through the
 * same function after decoding, so the key reaches no cache, session or report.
 */
import { describe, expect, it } from 'vitest';
import type { ChatRequest } from '../engine/model-call.ts';
import { endpointConfig, sendChat } from '../model/index.ts';

const KEY = 'sk-live-0123456789abcdefghijklmnopqrstuvwxyz';
/** The key as JSON escapes: `\u0073\u006b...`. */
const escaped = [...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
const chat: ChatRequest = { model: 'fake-model', messages: [{ role: 'user', content: 'Do it.' }], temperature: 0 };
const config = endpointConfig({ baseUrl: 'http://127.0.0.1:9/v1', models: { default: 'fake-model' }, apiKey: KEY });

/** A 200 answer whose body is exactly `body` (escapes as written). */
function answering(body: string): typeof fetch {
  return async () => new Response(body, { status: 200, headers: { 'Content-Type': 'application/json' } });
}

function body(message: string, extra = ''): string {
  return `{"id":"x","object":"chat.completion","model":"fake-model"${extra},"choices":[{"index":0,"message":${message},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":3,"completion_tokens":4}}`;
}

/** Every string in a value, with JSON text (tool call arguments) decoded too. */
function allText(value: unknown): string {
  const seen: string[] = [];
  const walk = (v: unknown): void => {
    if (typeof v === 'string') {
      seen.push(v);
      try {
        const inner: unknown = JSON.parse(v);
        if (typeof inner === 'object' && inner !== null) walk(inner);
      } catch {
        // not JSON
      }
    } else if (Array.isArray(v)) v.forEach(walk);
    else if (v !== null && typeof v === 'object') for (const [k, x] of Object.entries(v)) {
      seen.push(k);
      walk(x);
    }
  };
  walk(value);
  return seen.join('\n');
}

describe('the API key written with escapes', () => {
  it.each([
    ['a tool call name', `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"${escaped}","arguments":"{}"}}]}`],
    ['tool call arguments (escaped in the body)', `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"send","arguments":"{\\"to\\": \\"${escaped}\\"}"}}]}`],
    ['tool call arguments (escaped in the arguments JSON)', `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"send","arguments":"{\\"to\\": \\"${escaped.replaceAll('\\', '\\\\')}\\"}"}}]}`],
    ['a key of the tool call arguments', `{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"send","arguments":"{\\"${escaped.replaceAll('\\', '\\\\')}\\": 1}"}}]}`],
    ['the text', `{"role":"assistant","content":"here: ${escaped}"}`],
  ])('in %s is masked after decoding', async (_, message) => {
    const response = await sendChat(config, chat, { fetch: answering(body(message)) });
    const text = allText(response);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(KEY.slice(0, 12));
    expect(text).toContain('[API key]');
  });

  it('in the served model is masked after decoding', async () => {
    const response = await sendChat(config, chat, { fetch: answering(body('{"role":"assistant","content":"ok"}', `,"system_fingerprint":"${escaped}"`)) });
    expect(allText(response)).not.toContain(KEY);
    expect(JSON.stringify(response.served)).toContain('[API key]');
  });

  it('arguments without the key keep their text as the endpoint wrote it', async () => {
    const response = await sendChat(config, chat, { fetch: answering(body('{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"send","arguments":"{ \\"to\\" : \\"bob\\" }"}}]}')) });
    expect(response.toolCalls?.map((c) => c.arguments)).toEqual(['{ "to" : "bob" }']);
  });
});

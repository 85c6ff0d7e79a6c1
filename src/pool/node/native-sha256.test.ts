import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { requestKey, useNativeSha256 } from '../../engine/model-call.ts';
import { sha256 } from '../../engine/sha256.ts';
import { useNodeSha256 } from './native-sha256.ts';

const ownHex = (text: string) => [...sha256(new TextEncoder().encode(text))].map((b) => b.toString(16).padStart(2, '0')).join('');
const nodeHex = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

afterEach(() => useNativeSha256(null));

describe("request keys with Node's SHA-256", () => {
  it('hash every text as the engine does: accents, emoji, lone surrogates (both as U+FFFD), long texts', () => {
    const texts = ['', 'refund', 'café ☕ 🧾', '\uD800', 'a\uDC00b', '\uDBFF\uDFFF', 'x'.repeat(1_000_003), `{"messages":[{"content":"Çà\\u0028"}]}`];
    for (const text of texts) expect(nodeHex(text), JSON.stringify(text.slice(0, 20))).toBe(ownHex(text));
  });

  it('are what requestKey returns once set, and the engine\'s own hash again after null', () => {
    let calls = 0;
    useNativeSha256((text) => {
      calls++;
      return nodeHex(text);
    });
    const request = { model: 'm', messages: [{ role: 'user' as const, content: "keyed natively \uD800" }], temperature: 0 };
    expect(requestKey(request)).toBe(ownHex(JSON.stringify({ messages: request.messages.map((m) => ({ content: m.content, role: m.role })), model: 'm', temperature: 0 })));
    expect(calls).toBe(1);
    useNativeSha256(null);
    requestKey({ ...request, model: 'other' });
    expect(calls).toBe(1);
    useNodeSha256();
    expect(requestKey({ ...request, model: 'third' })).toBe(ownHex(JSON.stringify({ messages: request.messages.map((m) => ({ content: m.content, role: m.role })), model: 'third', temperature: 0 })));
  });
});

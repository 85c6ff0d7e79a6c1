import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { requestKey, type ChatRequest } from './model-call.ts';

const request = (k: number): ChatRequest => ({ model: 'm', messages: [{ role: 'user', content: `question ${k}` }], temperature: 0, max_tokens: 8 });

describe('requestKey', () => {
  it('is the SHA-256 of the canonical JSON (node:crypto as reference), the same when remembered and after the memo is cleared', () => {
    // Keys sorted, no spaces: the canonical text of this request.
    const text = '{"max_tokens":8,"messages":[{"content":"question 0","role":"user"}],"model":"m","temperature":0}';
    const reference = createHash('sha256').update(text).digest('hex');
    expect(requestKey(request(0))).toBe(reference);
    expect(requestKey({ temperature: 0, max_tokens: 8, messages: [{ role: 'user', content: 'question 0' }], model: 'm' })).toBe(reference);
    // Past the memo's bound (it is cleared and refilled): every key is still its own hash.
    for (let k = 1; k < 5000; k++) requestKey(request(k));
    expect(requestKey(request(0))).toBe(reference);
    expect(requestKey(request(4999))).toBe(createHash('sha256').update(text.replace('question 0', 'question 4999')).digest('hex'));
  });
});

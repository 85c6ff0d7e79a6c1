import { describe, expect, it } from 'vitest';
import { paramsFor } from '../../engine/model-params.ts';
import { maxTokensText, withMaxTokens } from './max-tokens-field.ts';

describe('the "Most tokens per answer" field', () => {
  it('sets, shows and clears default.max_tokens, keeping the other parameters', () => {
    const set = withMaxTokens({ default: { top_k: 40 }, big: { reasoning_effort: 'low' } }, ' 64 ');
    expect(set).toEqual({ ok: true, params: { default: { top_k: 40, max_tokens: 64 }, big: { reasoning_effort: 'low' } } });
    if (!set.ok) return;
    expect(maxTokensText(set.params)).toBe('64');
    // The engine reads it as the command's --model-param default.max_tokens=64.
    expect(paramsFor('default', { default: { max_tokens: 400 } }, set.params)).toMatchObject({ max_tokens: 64 });
    expect(withMaxTokens(set.params, '')).toEqual({ ok: true, params: { default: { top_k: 40 }, big: { reasoning_effort: 'low' } } });
    expect(withMaxTokens({ default: { max_tokens: 8 } }, '')).toEqual({ ok: true, params: undefined });
    expect(maxTokensText(undefined)).toBe('');
  });

  it('refuses what is not a positive whole number, saying which field', () => {
    for (const text of ['0', '-3', '2.5', 'ten', '1e3']) {
      const r = withMaxTokens(undefined, text);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.problem).toMatch(/^Most tokens per answer /);
    }
  });
});

import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../engine/index.ts';
import { validateCaseResult } from './validate-result.ts';
import { validateSettings } from './validate-settings.ts';

const result = { id: 'q1', players: ['a'], method: 'exact', failed: false, vEmpty: 0, vAll: 1, cost: 2, evaluations: 2, permutations: 0 };

describe('model steps in saved sessions', () => {
  it('keep a case\'s model usage and refuse a bad count, naming the path', () => {
    const usage = { requests: 3, cacheHits: 1, inputTokens: 120, outputTokens: 9 };
    expect(validateCaseResult({ ...result, usage }, 'results[0]').usage).toEqual(usage);
    expect(() => validateCaseResult({ ...result, usage: { ...usage, requests: -1 } }, 'results[0]')).toThrow(/results\[0\]\.usage\.requests: expected a count/);
    expect(() => validateCaseResult({ ...result, usage: { requests: 1 } }, 'results[0]')).toThrow(/results\[0\]\.usage/);
  });

  it('keep the study\'s model ids by alias', () => {
    const settings = JSON.parse(JSON.stringify({ ...DEFAULT_SETTINGS, budget: null, models: { default: 'qwen2.5:0.5b', big: 'llama3.1:8b' } }));
    expect(validateSettings(settings, 'settings').models).toEqual({ default: 'qwen2.5:0.5b', big: 'llama3.1:8b' });
    expect(() => validateSettings({ ...settings, models: { default: 3 } }, 'settings')).toThrow(/settings\.models\.default/);
  });
});

import { describe, expect, it } from 'vitest';
import { parseArgs } from './args.ts';

describe('--model-param and --timeout-request', () => {
  it('read ALIAS.KEY=VALUE as JSON when it is JSON, else as text, into the study settings', () => {
    const opts = parseArgs(['t.json', '--model-param', 'default.reasoning_effort=none', '--model-param', 'default.chat_template_kwargs={"enable_thinking":false}', '--model-param', 'judge.top_k=1', '--timeout-request', '300']);
    expect(opts.settings.modelParams).toEqual({ default: { reasoning_effort: 'none', chat_template_kwargs: { enable_thinking: false } }, judge: { top_k: 1 } });
    expect(opts.model.timeoutRequestMs).toBe(300_000);
  });

  it('take default.max_tokens=N, a cap that replaces the calls\' own (a recorded run\'s)', () => {
    expect(parseArgs(['t.json', '--model-param', 'default.max_tokens=256']).settings.modelParams).toEqual({ default: { max_tokens: 256 } });
  });

  it('refuse what is not a parameter, a field the call sets itself, a repeat and a bad time', () => {
    expect(() => parseArgs(['t.json', '--model-param', 'reasoning_effort=none'])).toThrow('--model-param: expected ALIAS.KEY=VALUE (e.g. default.reasoning_effort=none), got "reasoning_effort=none"');
    expect(() => parseArgs(['t.json', '--model-param', 'default.temperature=0'])).toThrow('--model-param default.temperature: "temperature" is set by the llm call itself');
    expect(() => parseArgs(['t.json', '--model-param', 'default.max_tokens=lots'])).toThrow('--model-param default.max_tokens: max_tokens must be a positive whole number, got "lots"');
    expect(() => parseArgs(['t.json', '--model-param', 'default.top_k=1', '--model-param', 'default.top_k=2'])).toThrow('--model-param: default.top_k is given twice');
    expect(() => parseArgs(['t.json', '--timeout-request', '0'])).toThrow('--timeout-request: expected seconds, more than 0 and at most 3600, got "0"');
  });
});

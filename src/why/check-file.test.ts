import { describe, expect, it } from 'vitest';
import { FormatError } from '../formats/format-error.ts';
import { parseCheck, serializeCheck, type CheckFile } from './check-file.ts';

const check: CheckFile = {
  format: 'agentblame-check',
  version: 1,
  trace: { file: '../traces/inbox.jsonl', run: 'inbox-1', digest: 'ab'.repeat(32) },
  call: { index: 3, step: '5' },
  predicate: { tool: 'forward_email', match: 'outside' },
  fix: { name: 'fix-the-source', remove: [{ message: 3, pointer: '/emails/0/body', paragraph: 2, sentence: 1 }], fill: '[gone]' },
  runs: 10,
  model: 'llama3.2:3b',
  seed: 1,
};

function error(value: unknown): FormatError {
  try {
    parseCheck(JSON.stringify(value));
  } catch (e) {
    if (e instanceof FormatError) return e;
    throw e;
  }
  throw new Error('no error');
}

describe('agentblame-check files', () => {
  it('read back what was written', () => {
    expect(parseCheck(serializeCheck(check))).toEqual(check);
    expect(parseCheck(serializeCheck({ ...check, fix: null }))).toEqual({ ...check, fix: null });
  });

  it('name the JSON path of what is wrong', () => {
    expect(error({ ...check, format: 'agentblame-trace' }).path).toBe('format');
    expect(error({ ...check, version: 2 }).message).toMatch(/^version: expected 1/);
    expect(error({ ...check, trace: { ...check.trace, file: '' } }).path).toBe('trace.file');
    expect(error({ ...check, call: { index: -1, step: '5' } }).path).toBe('call.index');
    expect(error({ ...check, predicate: {} }).message).toMatch(/^predicate: expected a tool, a match, or both/);
    expect(error({ ...check, fix: { name: 'both' } }).message).toMatch(/^fix: expected addSystem, remove, or both/);
    expect(error({ ...check, fix: { name: 'fix-the-source', remove: [{ message: 3, sentence: 1 }] } }).path).toBe('fix.remove[0].sentence');
    expect(error({ ...check, fix: { name: 'fix-the-source', remove: [{ message: 3, pointer: 'emails' }] } }).path).toBe('fix.remove[0].pointer');
    expect(error({ ...check, seed: 1.5 }).path).toBe('seed');
    expect(error({ ...check, ['__proto__']: 1 }).message).toBeTruthy();
    expect(() => parseCheck('{"format": ')).toThrow(FormatError);
  });
});

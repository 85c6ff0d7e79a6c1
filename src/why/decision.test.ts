import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRuntape } from '../formats/importers/runtape.ts';
import { actionOf, contentOf, decides, parseReply } from './decision.ts';
import { selectCall } from './select-call.ts';
import { inputProblem, WHY_FLAG_NAMES, WhySelectionError } from './selection-error.ts';

const run = readRuntape(readFileSync(join(import.meta.dirname, '../cli/fixtures/why-inbox.runtape.jsonl'), 'utf8')).runs[0];

describe('the decision', () => {
  it('reads tool calls back from a reply: the lines a context shows them as, or a JSON object with a name', () => {
    expect(parseReply('tool call: forward_email {"to": "x@y"}').toolCalls).toEqual([{ name: 'forward_email', arguments: '{"to": "x@y"}' }]);
    expect(parseReply('Sure. {"name": "forward_email", "arguments": {"to": "x@y"}}').toolCalls).toEqual([{ name: 'forward_email', arguments: '{"to":"x@y"}' }]);
    expect(parseReply('{"function": {"name": "reply", "arguments": "{\\"text\\": \\"hi\\"}"}}').toolCalls).toEqual([{ name: 'reply', arguments: '{"text": "hi"}' }]);
    expect(parseReply('I would not forward {this}.').toolCalls).toEqual([]);
    expect(contentOf({ role: 'assistant', text: 'Reading.', toolCalls: [{ name: 'read_inbox', arguments: '{}' }] })).toBe('Reading.\ntool call: read_inbox {}');
  });

  it('matches a tool by name and its arguments by --match, or the text by --match', () => {
    const reply = parseReply('tool call: forward_email {"to": "billing@outside.example"}');
    expect(decides({ tool: 'forward_email' }, reply)).toBe(true);
    expect(decides({ tool: 'forward_email', match: 'outside' }, reply)).toBe(true);
    expect(decides({ tool: 'forward_email', match: 'inside' }, reply)).toBe(false);
    expect(decides({ tool: 'reply' }, reply)).toBe(false);
    expect(decides({ match: 'refund of \\$\\d+' }, parseReply('I issued a refund of $64.'))).toBe(true);
    expect(actionOf(parseReply(''))).toBe('says nothing');
  });

  it('selects the last call, the last call of a tool, or a step index, with the predicate of what it did', () => {
    expect(selectCall(run, 'last')).toMatchObject({ index: 3, predicate: { tool: 'forward_email' } });
    expect(selectCall(run, 'tool:read_inbox')).toMatchObject({ index: 1, predicate: { tool: 'read_inbox' } });
    const call = selectCall(run, '3', 'outside-payments');
    expect(call.predicate).toEqual({ tool: 'forward_email', match: 'outside-payments' });
    expect(call.messages.map((m) => [m.role, m.name])).toEqual([
      ['system', undefined],
      ['user', undefined],
      ['assistant', undefined],
      ['tool', 'read_inbox'],
    ]);
    expect(call.messages[2].toolCalls).toEqual([{ name: 'read_inbox', arguments: '{}' }]);
    expect(() => selectCall(run, '0')).toThrow(/is not a model call/);
    expect(() => selectCall(run, '99')).toThrow(/has steps 0 to 4/);
    expect(() => selectCall(run, 'tool:reply')).toThrow(/no model call calls tool "reply"/);
  });

  it('says what is wrong in words of neither front end, naming the input it is about: the command heads it with its flag, the page with its field', () => {
    const problems: WhySelectionError[] = [];
    const attempts: [string, string | undefined][] = [['0', undefined], ['99', undefined], ['first', undefined], ['tool:', undefined], ['3', 'zzz'], ['3', '('], ['3', '(?=a)a']];
    for (const [which, match] of attempts) {
      try {
        selectCall(run, which, match);
      } catch (error) {
        if (error instanceof WhySelectionError) problems.push(error);
      }
    }
    // (?=a) runs where there is no linear-time matcher (vitest's engine): six problems, or seven with the `l` flag.
    expect(problems.length).toBeGreaterThanOrEqual(6);
    for (const e of problems) expect(e.message).not.toMatch(/--[a-z]/);
    expect(problems.map((e) => e.input).slice(0, 6)).toEqual(['call', 'call', 'call', 'call', 'match', 'match']);
    const mismatch = problems[4];
    expect(mismatch.message).toBe('step 3: the recorded answer does not match the decision (calls forward_email with arguments matching /zzz/)');
    expect(inputProblem(mismatch, WHY_FLAG_NAMES)).toBe(`--match: ${mismatch.message}`);
    expect(inputProblem(mismatch, { call: '', match: 'Match' })).toBe(`Match: ${mismatch.message}`);
    expect(inputProblem(problems[0], { call: '', match: 'Match' })).toBe(problems[0].message);
    expect(problems[5].message).toMatch(/^"\(" is not a regular expression/);
  });
});


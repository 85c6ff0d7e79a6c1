/**
 * Answers and recorded texts are scanned in linear time (docs/security.md, "Model answers"): an
 * answer may be 8 MiB, so a scan that restarts at every line (a leading `\s*` that crosses
 * newlines) takes hours on an answer of blank lines. Each shape below is a few MiB; a quadratic
 * scan would not finish within the test's time limit (these tests count, they do not time).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseReply } from '../why/index.ts';

const MIB = 1 << 20;
const repeat = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length));

describe('reading tool calls from an answer is linear', () => {
  it.each([
    ['newlines only', repeat('\n', 4 * MIB), 0],
    ['CRLF only', repeat('\r\n', 4 * MIB), 0],
    ['line separators only', repeat('\u2028', 2 * MIB), 0],
    ['spaces, then one line', `${repeat(' ', 2 * MIB)}\nx`, 0],
    ['blank lines with spaces', repeat(' \n\t\n', 2 * MIB), 0],
    ['"tool call:" with no name, on every line', repeat('tool call:\n', 2 * MIB), 0],
    ['unclosed braces', repeat('{', 2 * MIB), 0],
    ['an unclosed string in a brace', `{"${repeat('\\"', 2 * MIB)}`, 0],
    ['braces that are not JSON', repeat('{a}\n', 2 * MIB), 0],
    ['objects that are not JSON', repeat('{"a"}\n', 2 * MIB), 0],
  ])('%s', (_, answer, calls) => {
    expect(parseReply(answer).toolCalls).toHaveLength(calls);
  });

  it('a tool call on every line is read, each once', () => {
    const lines = 100_000;
    const reply = parseReply(repeat('\n  tool call: send {"to": "x"}\n\n', lines * 32));
    expect(reply.toolCalls.length).toBeGreaterThanOrEqual(lines);
    expect(reply.toolCalls[0]).toEqual({ name: 'send', arguments: '{"to": "x"}' });
  });

  it('a tool call line reads the same whatever blank lines and line ends surround it', () => {
    const blank = fc.array(fc.constantFrom('\n', '\r\n', ' ', '\t', '\u2028', '\u2029'), { maxLength: 30 }).map((a) => a.join(''));
    fc.assert(
      fc.property(blank, blank, (before, after) => {
        const ends = /[\n\r\u2028\u2029]/;
        const text = `${before}${before === '' || ends.test(before.at(-1)!) ? '' : '\n'}tool call: lookup {"id": 7}${after === '' || ends.test(after[0]) ? '' : '\n'}${after}`;
        expect(parseReply(text).toolCalls).toEqual([{ name: 'lookup', arguments: '{"id": 7}' }]);
      }),
      { numRuns: 300, seed: 34 },
    );
  });
});

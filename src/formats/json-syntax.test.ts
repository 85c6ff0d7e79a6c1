import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findJsonSyntaxError, lineAndColumn } from './json-syntax.ts';
import { parseJson } from './parse-json.ts';
import { formatErrorOf, isJson } from './test-helpers.ts';


describe('findJsonSyntaxError', () => {
  it.each([
    ['{"a": 1,}', 8, "trailing comma before '}'"],
    ['[1, 2,]', 6, "trailing comma before ']'"],
    ["{'a': 1}", 1, 'expected a property name in double quotes, found "\'"'],
    ['{"a" 1}', 5, "expected ':' after a property name, found \"1\""],
    ['{"a": 1 "b": 2}', 8, `expected ',' or '}' after a property value, found "\\""`],
    ['[1 2]', 3, "expected ',' or ']' after an array element, found \"2\""],
    ['[1, 2', 5, "expected ',' or ']' after an array element, found end of text"],
    ['{"a": tru}', 6, 'expected a value, found "t"'],
    ['{"a": undefined}', 6, 'expected a value, found "u"'],
    ['', 0, 'expected a value, found end of text'],
    ['{"a": "x', 6, 'unterminated string (no closing quote)'],
    ['"a\nb"', 2, 'unescaped control character U+000A inside a string (a string cannot span lines; write \\n)'],
    ['"\\x41"', 1, 'invalid escape \\x in a string'],
    ['"\\u12G4"', 1, 'invalid \\u escape in a string (expected four hex digits)'],
    ['01', 0, 'invalid number: leading zeros are not allowed'],
    ['-', 1, 'invalid number: expected a digit, found end of text'],
    ['1.', 2, 'invalid number: expected a digit after \'.\', found end of text'],
    ['1e+', 3, 'invalid number: expected a digit in the exponent, found end of text'],
    ['NaN', 0, 'expected a value, found "N"'],
    ['{} {}', 3, 'unexpected "{" after the end of the JSON value'],
  ])('locates the problem in %j', (text, offset, message) => {
    expect(isJson(text)).toBe(false);
    expect(findJsonSyntaxError(text)).toEqual({ offset, message });
  });

  it('accepts what JSON.parse accepts, and rejects what it rejects (property test)', () => {
    const edits = fc.constantFrom(',', ':', '"', '{', '}', '[', ']', '\\', '0', '-', '.', 'e', ' ', '\n', 't', 'x');
    const mutated = fc
      .tuple(fc.json({ maxDepth: 3 }), fc.nat(), edits, fc.boolean())
      .map(([text, at, char, insert]) => {
        const position = text.length === 0 ? 0 : at % text.length;
        return insert ? text.slice(0, position) + char + text.slice(position) : text.slice(0, position) + text.slice(position + 1);
      });
    fc.assert(
      fc.property(fc.oneof(fc.json({ maxDepth: 3 }), mutated), (text) => {
        expect(findJsonSyntaxError(text) === null).toBe(isJson(text));
      }),
      { numRuns: 2000 },
    );
  });

  it('scans deep nesting without recursion', () => {
    const deep = '['.repeat(100_000) + ']'.repeat(99_999);
    expect(findJsonSyntaxError(deep)).toEqual({ offset: deep.length, message: "expected ',' or ']' after an array element, found end of text" });
  });
});

describe('lineAndColumn', () => {
  it('counts lines from 1 and columns from 1', () => {
    expect(lineAndColumn('ab\ncd\nef', 0)).toEqual({ line: 1, column: 1 });
    expect(lineAndColumn('ab\ncd\nef', 2)).toEqual({ line: 1, column: 3 });
    expect(lineAndColumn('ab\ncd\nef', 3)).toEqual({ line: 2, column: 1 });
    expect(lineAndColumn('ab\ncd\nef', 7)).toEqual({ line: 3, column: 2 });
  });
});

describe('parseJson', () => {
  it('returns the value of valid JSON', () => {
    expect(parseJson('{"a": [1, "x"]}')).toEqual({ a: [1, 'x'] });
  });

  it('throws a FormatError with the path prefix, the line and the column', () => {
    const error = formatErrorOf(() => parseJson('{\n  "a": 1,\n  "b": ]\n}'));
    expect(error.message).toBe('invalid JSON at line 3, column 8: expected a value, found "]"');
    expect([error.line, error.column]).toEqual([3, 8]);
    const inLine = formatErrorOf(() => parseJson('{"a" 1}', 'line 7 (cases[5])', 7));
    expect(inLine.message).toBe('line 7 (cases[5]): invalid JSON at column 6: expected \':\' after a property name, found "1"');
    expect(inLine.line).toBe(7);
  });
});

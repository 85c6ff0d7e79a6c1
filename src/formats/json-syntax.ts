/**
 * Finds the first syntax error in a JSON text and says what was expected there.
 *
 * JSON.parse reports errors differently in every engine (V8 often gives only a character offset or
 * none at all, Firefox gives line and column, Safari neither), so the importers re-scan a text that
 * failed to parse with this engine-independent checker to name the exact line and column.
 * The grammar is RFC 8259 (https://www.rfc-editor.org/rfc/rfc8259). The scanner is iterative, with
 * an explicit stack, so deeply nested input cannot overflow the call stack.
 */

export interface JsonSyntaxProblem {
  /** UTF-16 offset of the problem in the text. */
  offset: number;
  /** What is wrong, e.g. `expected ',' or '}' after a property value, found "]"`. */
  message: string;
}

/**
 * What the scanner expects next: a value (after '[', ',' in an array, ':' or at the start),
 * a property name (after '{' or ',' in an object), or ',' / a closing bracket / the end of the text.
 */
type Expect = 'value' | 'key' | 'afterValue';

function isWhitespace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d;
}

function isDigit(code: number): boolean {
  return code >= 0x30 && code <= 0x39;
}

function isHexDigit(char: string): boolean {
  return /^[0-9a-fA-F]$/.test(char);
}

/** Describes the character at `offset` for a message ("end of text" past the end). */
function found(text: string, offset: number): string {
  if (offset >= text.length) return 'end of text';
  const code = text.charCodeAt(offset);
  if (code < 0x20 || code === 0x7f) return `control character U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  return JSON.stringify(text[offset]);
}

/** Scans a string starting at the opening quote; returns the offset after the closing quote or a problem. */
function scanString(text: string, start: number): number | JsonSyntaxProblem {
  let i = start + 1;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    if (code === 0x22) return i + 1;
    if (code < 0x20) {
      return { offset: i, message: `unescaped ${found(text, i)} inside a string (a string cannot span lines; write \\n)` };
    }
    if (code === 0x5c) {
      const escape = text[i + 1];
      if (escape === 'u') {
        for (let k = 2; k < 6; k++) {
          if (!isHexDigit(text[i + k] ?? '')) {
            return { offset: i, message: 'invalid \\u escape in a string (expected four hex digits)' };
          }
        }
        i += 6;
        continue;
      }
      if (escape === undefined || !'"\\/bfnrt'.includes(escape)) {
        return { offset: i, message: `invalid escape \\${escape ?? ''} in a string` };
      }
      i += 2;
      continue;
    }
    i++;
  }
  return { offset: start, message: 'unterminated string (no closing quote)' };
}

/** Scans a number per the JSON grammar; returns the offset after it or a problem. */
function scanNumber(text: string, start: number): number | JsonSyntaxProblem {
  let i = start;
  if (text[i] === '-') i++;
  if (text[i] === '0') {
    i++;
  } else if (isDigit(text.charCodeAt(i))) {
    while (isDigit(text.charCodeAt(i))) i++;
  } else {
    return { offset: i, message: `invalid number: expected a digit, found ${found(text, i)}` };
  }
  if (text[i] === '.') {
    i++;
    if (!isDigit(text.charCodeAt(i))) {
      return { offset: i, message: `invalid number: expected a digit after '.', found ${found(text, i)}` };
    }
    while (isDigit(text.charCodeAt(i))) i++;
  }
  if (text[i] === 'e' || text[i] === 'E') {
    i++;
    if (text[i] === '+' || text[i] === '-') i++;
    if (!isDigit(text.charCodeAt(i))) {
      return { offset: i, message: `invalid number: expected a digit in the exponent, found ${found(text, i)}` };
    }
    while (isDigit(text.charCodeAt(i))) i++;
  }
  if (isDigit(text.charCodeAt(i)) && text[start + (text[start] === '-' ? 1 : 0)] === '0') {
    return { offset: start, message: 'invalid number: leading zeros are not allowed' };
  }
  return i;
}

/** Returns the first syntax problem in `text`, or null when it is one valid JSON value. */
export function findJsonSyntaxError(text: string): JsonSyntaxProblem | null {
  /** Open containers, '{' or '['. */
  const stack: string[] = [];
  let expect: Expect = 'value';
  /** Whether the last token was a ',' (to name trailing commas). */
  let afterComma = false;
  let i = 0;

  for (;;) {
    while (i < text.length && isWhitespace(text.charCodeAt(i))) i++;
    const char = text[i];

    if (expect === 'afterValue') {
      const open = stack[stack.length - 1];
      if (open === undefined) {
        if (i >= text.length) return null;
        return { offset: i, message: `unexpected ${found(text, i)} after the end of the JSON value` };
      }
      const close = open === '{' ? '}' : ']';
      if (char === ',') {
        i++;
        afterComma = true;
        expect = open === '{' ? 'key' : 'value';
      } else if (char === close) {
        i++;
        stack.pop();
      } else {
        const what = open === '{' ? 'a property value' : 'an array element';
        return { offset: i, message: `expected ',' or '${close}' after ${what}, found ${found(text, i)}` };
      }
      continue;
    }

    if (expect === 'key') {
      if (char === '"') {
        const end = scanString(text, i);
        if (typeof end !== 'number') return end;
        i = end;
        while (i < text.length && isWhitespace(text.charCodeAt(i))) i++;
        if (text[i] !== ':') {
          return { offset: i, message: `expected ':' after a property name, found ${found(text, i)}` };
        }
        i++;
        afterComma = false;
        expect = 'value';
        continue;
      }
      if (char === '}' && afterComma) return { offset: i, message: "trailing comma before '}'" };
      return { offset: i, message: `expected a property name in double quotes, found ${found(text, i)}` };
    }

    // expect === 'value'
    if (char === ']' && afterComma) return { offset: i, message: "trailing comma before ']'" };
    afterComma = false;
    if (char === '{' || char === '[') {
      stack.push(char);
      i++;
      while (i < text.length && isWhitespace(text.charCodeAt(i))) i++;
      const close = char === '{' ? '}' : ']';
      if (text[i] === close) {
        i++;
        stack.pop();
        expect = 'afterValue';
      } else {
        expect = char === '{' ? 'key' : 'value';
      }
      continue;
    }
    let end: number | JsonSyntaxProblem;
    if (char === '"') {
      end = scanString(text, i);
    } else if (char === '-' || isDigit(text.charCodeAt(i))) {
      end = scanNumber(text, i);
    } else {
      const literal = ['true', 'false', 'null'].find((word) => text.startsWith(word, i));
      if (literal === undefined) {
        return { offset: i, message: `expected a value, found ${found(text, i)}` };
      }
      end = i + literal.length;
    }
    if (typeof end !== 'number') return end;
    i = end;
    expect = 'afterValue';
  }
}

/** 1-based line and column (in UTF-16 units) of `offset`; lines end at '\n'. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let k = text.indexOf('\n'); k !== -1 && k < offset; k = text.indexOf('\n', k + 1)) {
    line++;
    lineStart = k + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

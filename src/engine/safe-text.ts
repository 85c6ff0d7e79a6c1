/**
 * The two ways a text from a trace or a file leaves agentblame (docs/security.md, "Generated files"
 * and "Terminal output"): into generated code, only as a JSON literal written by `codeLiteral`; to a
 * terminal or a line-based file, only through `printable` / `jsonLine`. Nothing else writes a
 * stranger's text, so a name can never end a comment, close a string or move the cursor.
 */

/**
 * `value` as a JavaScript literal for generated source (a `--write-test` file, a replay definition):
 * JSON, which is an expression, with what could still end or disturb the surrounding code escaped:
 * U+2028/U+2029 (line terminators in source text), `<` and `>` (so `</script>`, `<!--` and `-->`
 * never appear; SES refuses HTML comment markers even inside strings), and the `(` or `/` after
 * `import` and `eval` (SES refuses those spellings anywhere). Every escape is a JSON escape, so the
 * literal still reads back with `JSON.parse` as the same value.
 */
export function codeLiteral(value: unknown, indent?: number): string {
  const json = JSON.stringify(value, null, indent);
  if (json === undefined) throw new TypeError(`codeLiteral: ${typeof value} has no JSON form`);
  return json
    .replace(/\b(import|eval)(\s*)([(/])/g, (_, word: string, space: string, c: string) => `${word}${space}${c === '(' ? '\\u0028' : '\\u002f'}`)
    .replace(/[<>\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Characters that move the cursor, recolour the screen, end a line or reorder what is shown. */
const TERMINAL_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** The same, less what a JSON text already escapes (U+0000-U+001F, which JSON writes as escapes). */
const JSON_UNSAFE = /[\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const hex4 = (ch: string) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Text from a definition or a file (case ids, names, error messages) made safe for a terminal, on
 * one line: control characters (escape codes, CR, NUL, newlines), C1 controls, line and paragraph
 * separators and the invisible bidirectional marks are written as `\xNN` / `\uNNNN` escapes, so
 * nothing a stranger's file holds can move the cursor, recolour the screen, overwrite a line or
 * reorder what is shown.
 */
export function printable(text: string): string {
  return text.replace(TERMINAL_UNSAFE, (ch) => {
    const code = ch.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : hex4(ch);
  });
}

/** A text of several lines (a table, a report) made safe for a terminal: `printable` on each line. */
export function printableLines(text: string): string {
  return text.split('\n').map(printable).join('\n');
}

/**
 * A JSON text (`JSON.stringify`'s output) made safe for a terminal and for line-based readers of
 * JSON Lines: the characters JSON leaves raw in strings that end a line for some readers (U+2028,
 * U+2029, U+0085: Python's `splitlines()`) or disturb a terminal (C1 controls, bidirectional marks)
 * are written as `\uNNNN` escapes. Still JSON, read back as the same value.
 */
export function safeJsonText(json: string): string {
  return json.replace(JSON_UNSAFE, hex4);
}

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

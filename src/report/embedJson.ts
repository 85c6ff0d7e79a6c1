/**
 * JSON text that is inert inside `<script type="application/json">`: every `<`, `>` and `&` and the
 * line separators U+2028/U+2029 become \u escapes, so the block can never contain `</script`, `<!--`
 * or `<script` (which would change how the HTML tokenizer reads the script data, HTML Standard
 * 13.2.5.4), and JSON.parse returns the original value unchanged.
 * JSON.stringify already escapes lone surrogates (ES2019 well-formed JSON.stringify).
 * Non-finite numbers (an infinite budget) become null, as with any JSON export.
 */
export function jsonForScriptBlock(value: unknown): string {
  const json = JSON.stringify(value);
  if (json === undefined) throw new Error('Report data: the session is not JSON-serialisable (got undefined).');
  return json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * Text from a definition or a file (case ids, names, error messages) made safe for a terminal:
 * control characters (escape codes, CR, NUL, newlines) and the invisible bidirectional overrides
 * are written as `\xNN` / `\uNNNN` escapes, so nothing a stranger's file holds can move the
 * cursor, recolour the screen, overwrite a line or reorder what is shown.
 */
export function printable(text: string): string {
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (ch) => {
    const code = ch.charCodeAt(0);
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}

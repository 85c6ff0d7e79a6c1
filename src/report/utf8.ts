/**
 * UTF-8 encoding in plain TypeScript, so the report renderer needs no host API (TextEncoder is not
 * guaranteed everywhere the renderer runs, and we want one behaviour in Node, workers and the page).
 * Encoding follows RFC 3629; a lone surrogate becomes U+FFFD, as the WHATWG encoder does, so the
 * bytes we hash are the bytes a browser would decode from the saved file.
 */
export function utf8Encode(text: string): Uint8Array {
  const out = new Uint8Array(utf8Length(text));
  let at = 0;
  for (let i = 0; i < text.length; i++) {
    const cp = codePointAt(text, i);
    if (cp > 0xffff) i++;
    if (cp < 0x80) {
      out[at++] = cp;
    } else if (cp < 0x800) {
      out[at++] = 0xc0 | (cp >> 6);
      out[at++] = 0x80 | (cp & 0x3f);
    } else if (cp < 0x10000) {
      out[at++] = 0xe0 | (cp >> 12);
      out[at++] = 0x80 | ((cp >> 6) & 0x3f);
      out[at++] = 0x80 | (cp & 0x3f);
    } else {
      out[at++] = 0xf0 | (cp >> 18);
      out[at++] = 0x80 | ((cp >> 12) & 0x3f);
      out[at++] = 0x80 | ((cp >> 6) & 0x3f);
      out[at++] = 0x80 | (cp & 0x3f);
    }
  }
  return out;
}

/** Number of bytes `utf8Encode(text)` produces, without allocating them (used for the size budget). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const cp = codePointAt(text, i);
    if (cp > 0xffff) i++;
    bytes += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return bytes;
}

/** The code point starting at index i; a lone surrogate reads as U+FFFD. */
function codePointAt(text: string, i: number): number {
  const unit = text.charCodeAt(i);
  if (unit >= 0xd800 && unit <= 0xdbff && i + 1 < text.length) {
    const next = text.charCodeAt(i + 1);
    if (next >= 0xdc00 && next <= 0xdfff) return 0x10000 + ((unit - 0xd800) << 10) + (next - 0xdc00);
  }
  if (unit >= 0xd800 && unit <= 0xdfff) return 0xfffd;
  return unit;
}

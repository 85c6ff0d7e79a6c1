/** Cheap looks at the opening of a file, for importers' `sniff` (no full parse). */

/** The opening of the text with whitespace squeezed out, for shape checks on the first fields. */
export function opening(text: string, length = 4096): string {
  return text.slice(0, length).replace(/^\uFEFF/, '').replace(/\s+/g, '');
}

/** The first non-empty line (JSONL formats). */
export function firstLine(text: string): string {
  const body = text.replace(/^\uFEFF/, '');
  for (let start = 0; start < body.length; ) {
    const end = body.indexOf('\n', start);
    const line = body.slice(start, end < 0 ? body.length : end).trim();
    if (line !== '') return line;
    if (end < 0) break;
    start = end + 1;
  }
  return '';
}

/** Whether the text looks like OTel spans in one of the envelopes readOtelTraces knows. */
export function looksLikeOtel(text: string): boolean {
  const head = opening(text);
  return (
    /"resourceSpans":/.test(head) ||
    /^\{"batches":\[\{"(resource|instrumentationLibrarySpans|scopeSpans)"/.test(head) ||
    /^\{"data":\[\{"traceID":/.test(head) ||
    /^\[\{[^[]*"context":\{"trace_id":/.test(head)
  );
}

/**
 * Vercel AI SDK spans (FORMATS.md §7): a list of JS ReadableSpan-like objects with
 * `spanContext`, `[seconds, nanoseconds]` times and `ai.*` / `gen_ai.*` attributes.
 */
import { isVercelDocument } from '../recorded/shapes.ts';
import type { Importer } from '../importer.ts';
import { childPath, indexPath } from '../json-path.ts';
import { expectArray, expectObject, ownField } from '../validate.ts';
import { FormatError } from '../format-error.ts';
import { parseJsonKeepingBigInts } from '../recorded/big-int-json.ts';
import { optArray, optObject, optString } from '../recorded/fields.ts';
import { groupedRuns, type TracedSpan } from '../recorded/grouped-runs.ts';
import { plainAttributes } from '../recorded/otel-attributes.ts';
import { readEvents } from '../recorded/otel-spans.ts';
import { normalizeOtelId } from '../recorded/otel-ids.ts';
import { opening } from '../recorded/sniff.ts';
import { hrTimeToMs } from '../recorded/times.ts';

export function readVercelSpans(text: string) {
  const spans: TracedSpan[] = expectArray(parseJsonKeepingBigInts(text), '(top level)').map((value, i) => {
    const path = indexPath('', i);
    const span = expectObject(value, path);
    const context = expectObject(ownField(span, 'spanContext'), childPath(path, 'spanContext'));
    const id = normalizeOtelId(ownField(context, 'spanId'), childPath(childPath(path, 'spanContext'), 'spanId'), 16);
    if (id === null) throw new FormatError(childPath(childPath(path, 'spanContext'), 'spanId'), 'missing (expected a span id)');
    const parentContext = optObject(span, 'parentSpanContext', path);
    const parent = normalizeOtelId(ownField(span, 'parentSpanId') ?? (parentContext ? ownField(parentContext, 'spanId') : undefined), childPath(path, 'parentSpanId'), 16);
    const status = optObject(span, 'status', path);
    return {
      traceId: normalizeOtelId(ownField(context, 'traceId'), childPath(childPath(path, 'spanContext'), 'traceId'), 32) ?? '',
      span: {
        id,
        parent,
        name: optString(span, 'name', path) ?? '',
        start: hrTimeToMs(ownField(span, 'startTime'), childPath(path, 'startTime')),
        end: hrTimeToMs(ownField(span, 'endTime'), childPath(path, 'endTime')),
        attributes: plainAttributes(ownField(span, 'attributes'), childPath(path, 'attributes')),
        failed: status !== undefined && ownField(status, 'code') === 2,
        ...(status && typeof ownField(status, 'message') === 'string' ? { statusMessage: String(ownField(status, 'message')) } : {}),
        events: readEvents(optArray(span, 'events', path), childPath(path, 'events'), plainAttributes),
        path,
      },
    };
  });
  return groupedRuns(spans, 'vercel-ai');
}

export const vercelAiImporter: Importer = {
  label: 'Vercel AI SDK spans',
  sniff: (text) => /^\[\{/.test(opening(text, 64)) && opening(text).includes('"spanContext":{'),
  recognize: (parsed) => isVercelDocument(parsed),
  shapes: [{ name: 'a list of Vercel AI SDK spans', paths: ['[].spanContext.spanId'] }],
  import: (text) => ({ kind: 'runs', runs: readVercelSpans(text) }),
};

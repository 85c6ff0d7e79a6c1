/**
 * any-agent AgentTrace files (FORMATS.md §7): `{spans, final_output}`, each span a dump of an
 * OTel ReadableSpan with decimal integer ids (read without rounding), ns times and GenAI attributes.
 */
import { isAnyAgentDocument } from '../recorded/shapes.ts';
import type { Importer } from '../importer.ts';
import { childPath, indexPath } from '../json-path.ts';
import { expectArray, expectObject, ownField } from '../validate.ts';
import { parseJsonKeepingBigInts } from '../recorded/big-int-json.ts';
import { optArray, optObject, optString, optStringOrNumber } from '../recorded/fields.ts';
import { plainAttributes } from '../recorded/otel-attributes.ts';
import { readEvents } from '../recorded/otel-spans.ts';
import { normalizeOtelId } from '../recorded/otel-ids.ts';
import { opening } from '../recorded/sniff.ts';
import { FormatError } from '../format-error.ts';
import { groupedRuns, type TracedSpan } from '../recorded/grouped-runs.ts';
import { nanosToMs } from '../recorded/times.ts';

export function readAnyAgent(text: string) {
  const parsed = expectObject(parseJsonKeepingBigInts(text), '(top level)');
  const spans: TracedSpan[] = expectArray(ownField(parsed, 'spans'), 'spans').map((value, i) => {
    const path = indexPath('spans', i);
    const span = expectObject(value, path);
    const context = expectObject(ownField(span, 'context'), childPath(path, 'context'));
    const parent = optObject(span, 'parent', path);
    const id = normalizeOtelId(optStringOrNumber(context, 'span_id', childPath(path, 'context')), childPath(childPath(path, 'context'), 'span_id'), 16, true);
    if (id === null) throw new FormatError(childPath(childPath(path, 'context'), 'span_id'), 'missing (expected a span id)');
    const status = optObject(span, 'status', path);
    const code = status ? optString(status, 'status_code', childPath(path, 'status')) : undefined;
    const description = status ? optString(status, 'description', childPath(path, 'status')) : undefined;
    return {
      traceId: normalizeOtelId(optStringOrNumber(context, 'trace_id', childPath(path, 'context')), childPath(childPath(path, 'context'), 'trace_id'), 32, true) ?? '',
      span: {
        id,
        parent: parent ? normalizeOtelId(optStringOrNumber(parent, 'span_id', childPath(path, 'parent')), childPath(childPath(path, 'parent'), 'span_id'), 16, true) : null,
        name: optString(span, 'name', path) ?? '',
        start: nanosToMs(ownField(span, 'start_time'), childPath(path, 'start_time')),
        end: nanosToMs(ownField(span, 'end_time'), childPath(path, 'end_time')),
        attributes: plainAttributes(ownField(span, 'attributes'), childPath(path, 'attributes')),
        failed: code === 'error' || code === 'ERROR',
        ...(description ? { statusMessage: description } : {}),
        events: readEvents(optArray(span, 'events', path), childPath(path, 'events'), plainAttributes),
        path,
      },
    };
  });
  return groupedRuns(spans, 'any-agent');
}

export const anyAgentImporter: Importer = {
  label: 'any-agent traces',
  sniff: (text) => /^\{"spans":\[\{/.test(opening(text, 256)) && opening(text).includes('"context":{'),
  recognize: (parsed) => isAnyAgentDocument(parsed),
  shapes: [{ name: 'an any-agent trace', paths: ['spans[].context.span_id'] }],
  import: (text) => ({ kind: 'runs', runs: readAnyAgent(text) }),
};

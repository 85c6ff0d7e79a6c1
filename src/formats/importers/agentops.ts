/**
 * AgentOps trace exports (FORMATS.md §7): `{trace, spans}` with ISO times and span attributes
 * unflattened into nested objects (flattened back to dotted keys here).
 */
import { isAgentOpsDocument } from '../recorded/shapes.ts';
import type { Importer } from '../importer.ts';
import { childPath, indexPath } from '../json-path.ts';
import { expectArray, expectObject, ownField } from '../validate.ts';
import { parseJsonKeepingBigInts } from '../recorded/big-int-json.ts';
import { optString, requireString } from '../recorded/fields.ts';
import { groupedRuns, type TracedSpan } from '../recorded/grouped-runs.ts';
import { flattenNested } from '../recorded/otel-attributes.ts';
import { normalizeOtelId } from '../recorded/otel-ids.ts';
import { opening } from '../recorded/sniff.ts';
import { isoToMs } from '../recorded/times.ts';

export function readAgentOps(text: string) {
  const parsed = expectObject(parseJsonKeepingBigInts(text), '(top level)');
  const trace = expectObject(ownField(parsed, 'trace'), 'trace');
  const traceId = normalizeOtelId(ownField(trace, 'trace_id'), 'trace.trace_id', 32) ?? '';
  const spans: TracedSpan[] = expectArray(ownField(parsed, 'spans'), 'spans').map((value, i) => {
    const path = indexPath('spans', i);
    const span = expectObject(value, path);
    const id = requireString(span, 'span_id', path);
    const code = optString(span, 'status_code', path);
    const parent = optString(span, 'parent_span_id', path);
    return {
      traceId,
      span: {
        id: normalizeOtelId(id, childPath(path, 'span_id'), 16) ?? id,
        parent: parent ? normalizeOtelId(parent, childPath(path, 'parent_span_id'), 16) : null,
        name: optString(span, 'span_name', path) ?? '',
        start: isoToMs(ownField(span, 'start_time'), childPath(path, 'start_time')),
        end: isoToMs(ownField(span, 'end_time'), childPath(path, 'end_time')),
        attributes: flattenNested(ownField(span, 'span_attributes'), childPath(path, 'span_attributes')),
        failed: code === 'ERROR' || code === 'STATUS_CODE_ERROR',
        ...(optString(span, 'status_message', path) ? { statusMessage: optString(span, 'status_message', path) } : {}),
        events: [],
        path,
      },
    };
  });
  return groupedRuns(spans, 'agentops');
}

export const agentOpsImporter: Importer = {
  label: 'AgentOps trace export',
  sniff: (text) => /^\{"trace":\{/.test(opening(text, 64)) && text.includes('"span_id"') && !text.includes('"observations"'),
  recognize: (parsed) => isAgentOpsDocument(parsed),
  shapes: [{ name: 'an AgentOps trace export', paths: ['trace', 'spans[].span_id'] }],
  import: (text) => ({ kind: 'runs', runs: readAgentOps(text) }),
};

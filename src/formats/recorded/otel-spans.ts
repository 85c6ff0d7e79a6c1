/**
 * Reads the span envelopes OTel data comes in, into folded spans grouped by trace:
 * OTLP/JSON (`resourceSpans`, one request or an array of them, with `resourceLogs` events),
 * Tempo (`batches` / `instrumentationLibrarySpans`), Jaeger (`data[].spans`) and the Python
 * console exporter's list of `span.to_json()` dicts (FORMATS.md §2).
 */
import { FormatError } from '../format-error.ts';
import { childPath, indexPath } from '../json-path.ts';
import { describeValue, expectArray, expectObject, isJsonObject, ownField, type JsonObject } from '../validate.ts';
import { optArray, optObject, optString, optStringOrNumber, requireString } from './fields.ts';
import { foldJaegerTags, foldKeyValues, plainAttributes } from './otel-attributes.ts';
import { normalizeOtelId } from './otel-ids.ts';
import type { FoldedSpan, SpanEvent } from './span-step.ts';
import { checkedTime, isoToMs, microsToMs, nanosToMs } from './times.ts';
import { describeNearMiss, nearestShape, type FormatShape } from '../nearest-shape.ts';

export interface TraceSpans {
  traceId: string;
  spans: FoldedSpan[];
}

export type OtelEnvelope = 'otlp' | 'tempo' | 'jaeger' | 'console';

/** Which envelope a parsed file is, or null. */
/** The envelopes readOtelTraces knows, as shapes: a refused file is told which it comes nearest to. */
export const OTEL_SHAPES: readonly FormatShape[] = [
  { name: 'an OTLP request envelope', paths: ['resourceSpans[].scopeSpans[].spans[]'] },
  { name: 'an OTLP request envelope (old field names)', paths: ['resourceSpans[].instrumentationLibrarySpans[].spans[]'] },
  { name: 'a Tempo export', paths: ['batches[].scopeSpans[].spans[]'] },
  { name: 'a Tempo export (old field names)', paths: ['batches[].instrumentationLibrarySpans[].spans[]'] },
  { name: 'a Jaeger export', paths: ['data[].spans[]'] },
  { name: "an OpenTelemetry console exporter's list", paths: ['[].context.span_id'] },
];

/** "this looks like a Jaeger export but has no data[].spans: ..." for a file near one of the envelopes, else null. */
export function nearOtel(parsed: unknown): string | null {
  const near = nearestShape(parsed, OTEL_SHAPES);
  return near ? `this ${describeNearMiss(near)}` : null;
}

export function otelEnvelope(parsed: unknown): OtelEnvelope | null {
  const first = Array.isArray(parsed) ? parsed[0] : parsed;
  if (!isJsonObject(first)) return null;
  if (Object.hasOwn(first, 'resourceSpans')) return 'otlp';
  if (Object.hasOwn(first, 'batches')) return 'tempo';
  if (Array.isArray(first.data) && isJsonObject(first.data[0]) && Object.hasOwn(first.data[0], 'spans')) return 'jaeger';
  if (Array.isArray(parsed) && isJsonObject(first.context) && Object.hasOwn(first.context, 'span_id')) return 'console';
  return null;
}

function statusOf(status: JsonObject | undefined, path: string): { failed: boolean; message?: string } {
  if (!status) return { failed: false };
  const code = ownField(status, 'code') ?? ownField(status, 'status_code');
  const failed = code === 2 || code === 'STATUS_CODE_ERROR' || code === 'ERROR' || code === 'error';
  if (code !== undefined && typeof code !== 'number' && typeof code !== 'string') throw new FormatError(childPath(path, 'code'), `expected a status code, ${describeValue(code)}`);
  const message = optString(status, 'message', path) ?? optString(status, 'description', path);
  return message ? { failed, message } : { failed };
}

/** A span's events, each attribute list read by `fold` (Jaeger keeps them under `fields`). */
export function readEvents(list: unknown[] | undefined, path: string, fold: (attrs: unknown, at: string) => Record<string, unknown>, attrsKey = 'attributes'): SpanEvent[] {
  return (list ?? []).map((item, i) => {
    const at = indexPath(path, i);
    const event = expectObject(item, at);
    return { name: optString(event, 'name', at) ?? '', attributes: fold(ownField(event, attrsKey), childPath(at, attrsKey)) };
  });
}

/** Where an OTLP-shaped span keeps what the formats name differently: the parent, the two times and the attributes. */
interface OtlpDialect {
  parent: string;
  start: string;
  end: string;
  time: (value: unknown, path: string) => number | null;
  fold: (attrs: unknown, at: string) => Record<string, unknown>;
}

/** OTLP/JSON and Tempo: key-value attributes, times in nanoseconds. */
const OTLP: OtlpDialect = { parent: 'parentSpanId', start: 'startTimeUnixNano', end: 'endTimeUnixNano', time: nanosToMs, fold: foldKeyValues };
/** The console exporter's `span.to_json()`: plain attributes, ISO times. */
const CONSOLE: OtlpDialect = { parent: 'parent_id', start: 'start_time', end: 'end_time', time: isoToMs, fold: plainAttributes };

/** A span of the OTLP shape (status, name, events), its fields read in the order they are written. */
function otlpShapedSpan(span: JsonObject, path: string, id: string, dialect: OtlpDialect): FoldedSpan {
  const status = statusOf(optObject(span, 'status', path), childPath(path, 'status'));
  return {
    id,
    parent: normalizeOtelId(ownField(span, dialect.parent), childPath(path, dialect.parent), 16),
    name: optString(span, 'name', path) ?? '',
    start: dialect.time(ownField(span, dialect.start), childPath(path, dialect.start)),
    end: dialect.time(ownField(span, dialect.end), childPath(path, dialect.end)),
    attributes: dialect.fold(ownField(span, 'attributes'), childPath(path, 'attributes')),
    failed: status.failed,
    ...(status.message ? { statusMessage: status.message } : {}),
    events: readEvents(optArray(span, 'events', path), childPath(path, 'events'), dialect.fold),
    path,
  };
}

/** One OTLP or Tempo span. */
function otlpSpan(value: unknown, path: string, traces: Map<string, FoldedSpan[]>): void {
  const span = expectObject(value, path);
  const traceId = normalizeOtelId(ownField(span, 'traceId'), childPath(path, 'traceId'), 32) ?? '';
  const id = normalizeOtelId(ownField(span, 'spanId'), childPath(path, 'spanId'), 16);
  if (id === null) throw new FormatError(childPath(path, 'spanId'), 'missing (expected a span id)');
  push(traces, traceId, otlpShapedSpan(span, path, id, OTLP));
}

function push(traces: Map<string, FoldedSpan[]>, traceId: string, span: FoldedSpan): void {
  const list = traces.get(traceId);
  if (list) list.push(span);
  else traces.set(traceId, [span]);
}

/** `resourceLogs` records linked to spans by id (GenAI events in log form). */
function otlpLogs(request: JsonObject, path: string, eventsBySpan: Map<string, SpanEvent[]>): void {
  const resourceLogs = optArray(request, 'resourceLogs', path) ?? [];
  resourceLogs.forEach((rl, i) => {
    const rlPath = indexPath(childPath(path, 'resourceLogs'), i);
    const scopeLogs = optArray(expectObject(rl, rlPath), 'scopeLogs', rlPath) ?? [];
    scopeLogs.forEach((sl, j) => {
      const slPath = indexPath(childPath(rlPath, 'scopeLogs'), j);
      const records = optArray(expectObject(sl, slPath), 'logRecords', slPath) ?? [];
      records.forEach((r, k) => {
        const at = indexPath(childPath(slPath, 'logRecords'), k);
        const record = expectObject(r, at);
        const spanId = normalizeOtelId(ownField(record, 'spanId'), childPath(at, 'spanId'), 16);
        if (spanId === null) return;
        const attributes = foldKeyValues(ownField(record, 'attributes'), childPath(at, 'attributes'));
        const body = ownField(record, 'body');
        if (body !== undefined && body !== null) attributes.body = foldBody(body, childPath(at, 'body'));
        const name = optString(record, 'eventName', at) ?? (typeof attributes['event.name'] === 'string' ? attributes['event.name'] : '');
        const list = eventsBySpan.get(spanId) ?? [];
        list.push({ name, attributes });
        eventsBySpan.set(spanId, list);
      });
    });
  });
}

function foldBody(body: unknown, path: string): unknown {
  const object = expectObject(body, path);
  if (Object.hasOwn(object, 'kvlistValue')) return foldKeyValues(ownField(expectObject(ownField(object, 'kvlistValue'), childPath(path, 'kvlistValue')), 'values'), childPath(childPath(path, 'kvlistValue'), 'values'));
  if (Object.hasOwn(object, 'stringValue')) return ownField(object, 'stringValue');
  return object;
}

/**
 * One ResourceSpans object (an OTLP request's `resourceSpans` entry, a Tempo batch): its spans, under
 * `scopeSpans` or the older `instrumentationLibrarySpans`.
 */
function readResourceSpans(object: JsonObject, path: string, traces: Map<string, FoldedSpan[]>): void {
  const scopeSpans = optArray(object, 'scopeSpans', path);
  const key = scopeSpans !== undefined ? 'scopeSpans' : 'instrumentationLibrarySpans';
  const scopes = scopeSpans ?? optArray(object, key, path) ?? [];
  scopes.forEach((ss, k) => {
    const ssPath = indexPath(childPath(path, key), k);
    const spans = optArray(expectObject(ss, ssPath), 'spans', ssPath) ?? [];
    spans.forEach((s, m) => otlpSpan(s, indexPath(childPath(ssPath, 'spans'), m), traces));
  });
}

function readOtlp(parsed: unknown, traces: Map<string, FoldedSpan[]>, eventsBySpan: Map<string, SpanEvent[]>): void {
  const requests = Array.isArray(parsed) ? parsed : [parsed];
  const prefix = (i: number): string => (Array.isArray(parsed) ? indexPath('', i) : '');
  requests.forEach((item, i) => {
    const path = prefix(i);
    const request = expectObject(item, path === '' ? '(top level)' : path);
    const resourceSpans = expectArray(ownField(request, 'resourceSpans') ?? [], childPath(path, 'resourceSpans'));
    resourceSpans.forEach((rs, j) => {
      const rsPath = indexPath(childPath(path, 'resourceSpans'), j);
      readResourceSpans(expectObject(rs, rsPath), rsPath, traces);
    });
    otlpLogs(request, path, eventsBySpan);
  });
}

function readTempo(parsed: unknown, traces: Map<string, FoldedSpan[]>): void {
  const root = expectObject(parsed, '(top level)');
  const batches = expectArray(ownField(root, 'batches'), 'batches');
  batches.forEach((b, i) => {
    const bPath = indexPath('batches', i);
    readResourceSpans(expectObject(b, bPath), bPath, traces);
  });
}

function readJaeger(parsed: unknown, traces: Map<string, FoldedSpan[]>): void {
  const root = expectObject(parsed, '(top level)');
  const data = expectArray(ownField(root, 'data'), 'data');
  data.forEach((t, i) => {
    const tPath = indexPath('data', i);
    const trace = expectObject(t, tPath);
    const spans = expectArray(ownField(trace, 'spans'), childPath(tPath, 'spans'));
    spans.forEach((s, j) => {
      const path = indexPath(childPath(tPath, 'spans'), j);
      const span = expectObject(s, path);
      const traceId = normalizeOtelId(ownField(span, 'traceID'), childPath(path, 'traceID'), 32) ?? '';
      const id = normalizeOtelId(requireString(span, 'spanID', path), childPath(path, 'spanID'), 16);
      if (id === null) throw new FormatError(childPath(path, 'spanID'), 'expected a span id');
      const references = optArray(span, 'references', path) ?? [];
      let parent: string | null = null;
      references.forEach((r, k) => {
        const rPath = indexPath(childPath(path, 'references'), k);
        const ref = expectObject(r, rPath);
        if (parent === null && optString(ref, 'refType', rPath) === 'CHILD_OF') parent = normalizeOtelId(ownField(ref, 'spanID'), childPath(rPath, 'spanID'), 16);
      });
      const start = microsToMs(ownField(span, 'startTime'), childPath(path, 'startTime'));
      const duration = microsToMs(ownField(span, 'duration'), childPath(path, 'duration'));
      const attributes = foldJaegerTags(ownField(span, 'tags'), childPath(path, 'tags'));
      const code = attributes['otel.status_code'];
      const failed = attributes.error === true || attributes.error === 'true' || code === 'ERROR';
      const message = typeof attributes['otel.status_description'] === 'string' ? attributes['otel.status_description'] : undefined;
      const events = readEvents(optArray(span, 'logs', path), childPath(path, 'logs'), foldJaegerTags, 'fields').map((e) => ({ name: typeof e.attributes.event === 'string' ? e.attributes.event : e.name, attributes: e.attributes }));
      push(traces, traceId, {
        id,
        parent,
        name: optString(span, 'operationName', path) ?? '',
        start,
        end: start !== null && duration !== null ? checkedTime(start + duration, childPath(path, 'duration'), ownField(span, 'duration')) : null,
        attributes,
        failed,
        ...(message ? { statusMessage: message } : {}),
        events,
        path,
      });
    });
  });
}

function readConsole(parsed: unknown, traces: Map<string, FoldedSpan[]>): void {
  expectArray(parsed, '(top level)').forEach((s, i) => {
    const path = indexPath('', i);
    const span = expectObject(s, path);
    const context = expectObject(ownField(span, 'context'), childPath(path, 'context'));
    const traceId = normalizeOtelId(optStringOrNumber(context, 'trace_id', childPath(path, 'context')), childPath(childPath(path, 'context'), 'trace_id'), 32) ?? '';
    const id = normalizeOtelId(optStringOrNumber(context, 'span_id', childPath(path, 'context')), childPath(childPath(path, 'context'), 'span_id'), 16);
    if (id === null) throw new FormatError(childPath(childPath(path, 'context'), 'span_id'), 'missing (expected a span id)');
    push(traces, traceId, otlpShapedSpan(span, path, id, CONSOLE));
  });
}

/** Every span of an OTel parsed, grouped by trace id in order of first appearance. */
export function readOtelTraces(parsed: unknown): TraceSpans[] {
  const envelope = otelEnvelope(parsed);
  const traces = new Map<string, FoldedSpan[]>();
  const eventsBySpan = new Map<string, SpanEvent[]>();
  switch (envelope) {
    case 'otlp':
      readOtlp(parsed, traces, eventsBySpan);
      break;
    case 'tempo':
      readTempo(parsed, traces);
      break;
    case 'jaeger':
      readJaeger(parsed, traces);
      break;
    case 'console':
      readConsole(parsed, traces);
      break;
    default:
      throw new FormatError('', nearOtel(parsed) ?? 'expected OpenTelemetry spans (resourceSpans, batches, Jaeger data[].spans or a list of exported spans)');
  }
  for (const spans of traces.values()) {
    for (const span of spans) {
      const extra = eventsBySpan.get(span.id);
      if (extra) span.events = [...span.events, ...extra];
    }
  }
  return [...traces.entries()].map(([traceId, spans]) => ({ traceId, spans }));
}

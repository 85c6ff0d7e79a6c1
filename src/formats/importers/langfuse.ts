/**
 * Langfuse exports (FORMATS.md §4): `{trace, observations}`. The trace is the root step; each
 * observation is a step under its `parentObservationId` (or the trace). `metadata` holds the
 * original span attributes as a JSON string, read for the model and the kind of generic spans.
 */
import { buildRun, type StepDraft, type StepKind, type TokenUsage } from '../../runs/index.ts';
import { isLangfuseDocument } from '../recorded/shapes.ts';
import type { Importer } from '../importer.ts';
import { childPath, indexPath } from '../json-path.ts';
import { expectArray, expectObject, isJsonObject, ownField, type JsonObject } from '../validate.ts';
import { parseJsonKeepingBigInts } from '../recorded/big-int-json.ts';
import { optObject, optString, optStringOrNumber, requireString, toCount } from '../recorded/fields.ts';
import { attributeMap } from '../recorded/otel-attributes.ts';
import { opening } from '../recorded/sniff.ts';
import { spanKind } from '../recorded/span-step.ts';
import { isoToMs } from '../recorded/times.ts';

const TYPE_KIND: Record<string, StepKind> = {
  GENERATION: 'llm',
  TOOL: 'tool',
  AGENT: 'agent',
  CHAIN: 'chain',
  RETRIEVER: 'retriever',
};

/** `metadata.attributes`, when metadata is JSON (as text or an object); {} otherwise. */
function originalAttributes(metadata: unknown): Record<string, unknown> {
  let value = metadata;
  if (typeof value === 'string') {
    try {
      value = JSON.parse(value);
    } catch {
      return {};
    }
  }
  return isJsonObject(value) && isJsonObject(value.attributes) ? Object.assign(attributeMap(), value.attributes) : attributeMap();
}

function usageOf(observation: JsonObject, path: string): TokenUsage | null {
  const details = optObject(observation, 'usageDetails', path);
  const input = toCount(details ? ownField(details, 'input') : undefined, childPath(childPath(path, 'usageDetails'), 'input')) ?? toCount(ownField(observation, 'inputUsage'), childPath(path, 'inputUsage'));
  const output = toCount(details ? ownField(details, 'output') : undefined, childPath(childPath(path, 'usageDetails'), 'output')) ?? toCount(ownField(observation, 'outputUsage'), childPath(path, 'outputUsage'));
  if ((input ?? 0) === 0 && (output ?? 0) === 0) return null;
  return { input: input ?? 0, output: output ?? 0 };
}

function textOf(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** What the generation was sent besides its messages: `modelParameters` and `toolDefinitions`, when recorded (not `{}`). */
function recordedRequest(o: JsonObject): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ['modelParameters', 'toolDefinitions']) {
    const v = ownField(o, key);
    if ((isJsonObject(v) && Object.keys(v).length > 0) || (Array.isArray(v) && v.length > 0)) out[key] = v;
  }
  return out;
}

function observationStep(value: unknown, path: string, traceId: string): StepDraft {
  const o = expectObject(value, path);
  const id = requireString(o, 'id', path);
  const type = optString(o, 'type', path) ?? 'SPAN';
  const name = optString(o, 'name', path) ?? type.toLowerCase();
  const attributes = originalAttributes(ownField(o, 'metadata'));
  const kind = Object.hasOwn(TYPE_KIND, type) ? TYPE_KIND[type] : spanKind(name, attributes);
  const level = optString(o, 'level', path);
  const model = optString(o, 'model', path) ?? (typeof attributes['gen_ai.request.model'] === 'string' ? attributes['gen_ai.request.model'] : null) ?? (typeof attributes['ai.model.id'] === 'string' ? attributes['ai.model.id'] : null);
  const step: StepDraft = {
    id,
    parent: optStringOrNumber(o, 'parentObservationId', path) ?? traceId,
    name,
    kind,
    start: isoToMs(ownField(o, 'startTime'), childPath(path, 'startTime')),
    end: isoToMs(ownField(o, 'endTime'), childPath(path, 'endTime')),
    model: kind === 'llm' || kind === 'agent' ? model : null,
    usage: kind === 'llm' ? usageOf(o, path) : null,
    error: level === 'ERROR' ? (optString(o, 'statusMessage', path) ?? 'error') : null,
    attributes: Object.assign(attributeMap(), { type, ...(level ? { level } : {}), ...recordedRequest(o) }, attributes),
  };
  // pydantic-ai names its agent on the agent's span (`agent_name`, newer: `gen_ai.agent.name`); an AGENT observation is one.
  const agent = textOf(attributes['gen_ai.agent.name']) ?? textOf(attributes.agent_name) ?? (type === 'AGENT' ? name : undefined);
  if (agent !== undefined) step.agent = agent;
  const input = ownField(o, 'input');
  const output = ownField(o, 'output');
  if (input !== undefined && input !== null) step.input = { form: 'value', value: input, ...(kind === 'tool' ? { role: 'tool' } : {}) };
  if (output !== undefined && output !== null) step.output = { form: 'value', value: output, ...(kind === 'tool' ? { role: 'tool' } : {}) };
  return step;
}

export function readLangfuse(text: string) {
  const parsed = expectObject(parseJsonKeepingBigInts(text), '(top level)');
  const trace = expectObject(ownField(parsed, 'trace'), 'trace');
  const traceId = requireString(trace, 'id', 'trace');
  // The top-level list carries input/output/metadata; `trace.observations` repeats the ids without them.
  const list = ownField(parsed, 'observations') !== undefined ? expectArray(ownField(parsed, 'observations'), 'observations') : expectArray(ownField(trace, 'observations') ?? [], 'trace.observations');
  const where = ownField(parsed, 'observations') !== undefined ? 'observations' : 'trace.observations';
  const steps = list.map((o, i) => observationStep(o, indexPath(where, i), traceId));
  // A loop, not Math.min(...starts): spreading 130 000 observations overflows the call stack.
  const traceStart = isoToMs(ownField(trace, 'timestamp'), 'trace.timestamp');
  let first = traceStart;
  let last: number | null = null;
  for (const s of steps) {
    if (s.start !== null && (first === null || s.start < first)) first = s.start;
    if (s.end !== null && (last === null || s.end > last)) last = s.end;
  }
  const root: StepDraft = {
    id: traceId,
    parent: null,
    name: optString(trace, 'name', 'trace') ?? 'trace',
    kind: 'chain',
    start: first,
    end: last,
    model: null,
    usage: null,
    error: null,
    attributes: { sessionId: ownField(trace, 'sessionId') ?? null, userId: ownField(trace, 'userId') ?? null, tags: ownField(trace, 'tags') ?? [] },
  };
  const input = ownField(trace, 'input');
  const output = ownField(trace, 'output');
  if (input !== undefined && input !== null) root.input = { form: 'value', value: input };
  if (output !== undefined && output !== null) root.output = { form: 'value', value: output };
  return { format: 'langfuse', runs: [buildRun({ id: traceId, name: root.name, steps: [root, ...steps] })] };
}

export const langfuseImporter: Importer = {
  label: 'Langfuse trace export (trace + observations)',
  sniff: (text) => /^\{"(trace|observations)":/.test(opening(text, 64)) && text.includes('"observations"'),
  recognize: (parsed) => isLangfuseDocument(parsed),
  shapes: [{ name: 'a Langfuse trace export', paths: ['trace', 'observations[]'] }],
  import: (text) => ({ kind: 'runs', runs: readLangfuse(text) }),
};

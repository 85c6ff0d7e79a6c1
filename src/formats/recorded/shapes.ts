/**
 * Shape checks on a parsed document, for importers' `recognize`: the same questions the sniffs ask
 * of a file's opening, asked of the whole parsed value, so a file whose telling fields come after
 * a long preamble (large resource attributes, a big first span) is still recognised.
 */
import { isJsonObject } from '../validate.ts';
import { otelEnvelope } from './otel-spans.ts';

function first(value: unknown): unknown {
  return Array.isArray(value) ? value[0] : undefined;
}

/** Whether some item of a list (as the sniffs see any item in the opening, not only the first) has the key as an object or a value. */
function someHas(list: unknown, key: string, object = false): boolean {
  return Array.isArray(list) && list.some((item) => has(item, key) && (!object || isJsonObject((item as Record<string, unknown>)[key])));
}

function has(value: unknown, key: string): boolean {
  return isJsonObject(value) && Object.hasOwn(value, key);
}

/** OTel spans in one of the envelopes readOtelTraces knows. */
export function isOtelDocument(parsed: unknown): boolean {
  return otelEnvelope(parsed) !== null;
}

/** Langfuse `{trace, observations}` (or the observations inside the trace). */
export function isLangfuseDocument(parsed: unknown): boolean {
  if (!isJsonObject(parsed)) return false;
  return Object.hasOwn(parsed, 'observations') || (isJsonObject(parsed.trace) && Object.hasOwn(parsed.trace, 'observations') && !Object.hasOwn(parsed, 'spans'));
}

/** AgentOps `{trace, spans}` whose spans carry `span_id`. */
export function isAgentOpsDocument(parsed: unknown): boolean {
  return isJsonObject(parsed) && isJsonObject(parsed.trace) && Object.hasOwn(parsed, 'spans') && !Object.hasOwn(parsed, 'observations') && (!Array.isArray(parsed.spans) || parsed.spans.length === 0 || has(first(parsed.spans), 'span_id'));
}

/** LangSmith `{post, patch}`, `{runs: [...]}` or a list of runs. */
export function isLangSmithDocument(parsed: unknown): boolean {
  if (isJsonObject(parsed)) {
    if (Object.hasOwn(parsed, 'post') || Object.hasOwn(parsed, 'patch')) return true;
    return isJsonObject(first(parsed.runs)) && someHas(parsed.runs, 'run_type');
  }
  return Array.isArray(parsed) && isJsonObject(first(parsed)) && someHas(parsed, 'run_type') && someHas(parsed, 'dotted_order');
}

/** any-agent `{spans: [{context: {...}}]}`. */
export function isAnyAgentDocument(parsed: unknown): boolean {
  return isJsonObject(parsed) && !isJsonObject(parsed.trace) && isJsonObject(first(parsed.spans)) && someHas(parsed.spans, 'context', true);
}

/** Vercel AI SDK spans: a list whose spans carry `spanContext`. */
export function isVercelDocument(parsed: unknown): boolean {
  return isJsonObject(first(parsed)) && someHas(parsed, 'spanContext', true);
}

function isAttributeValue(value: unknown): boolean {
  return value === null || typeof value !== 'object' || (Array.isArray(value) && value.every((item) => item === null || typeof item !== 'object'));
}

/**
 * A bare span attribute map: a flat object (values are text, numbers, booleans or lists of them)
 * with dotted GenAI or OpenInference keys, and no `format`.
 */
export function isSpanAttributeMap(parsed: unknown): boolean {
  if (!isJsonObject(parsed) || Object.hasOwn(parsed, 'format')) return false;
  const keys = Object.keys(parsed);
  return keys.some((key) => /^(gen_ai|llm|openinference)\.[a-z_.]+$/.test(key)) && keys.every((key) => isAttributeValue(parsed[key]));
}

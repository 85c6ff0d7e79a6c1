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
export function isOtelDocument(document: unknown): boolean {
  return otelEnvelope(document) !== null;
}

/** Langfuse `{trace, observations}` (or the observations inside the trace). */
export function isLangfuseDocument(document: unknown): boolean {
  if (!isJsonObject(document)) return false;
  return Object.hasOwn(document, 'observations') || (isJsonObject(document.trace) && Object.hasOwn(document.trace, 'observations') && !Object.hasOwn(document, 'spans'));
}

/** AgentOps `{trace, spans}` whose spans carry `span_id`. */
export function isAgentOpsDocument(document: unknown): boolean {
  return isJsonObject(document) && isJsonObject(document.trace) && Object.hasOwn(document, 'spans') && !Object.hasOwn(document, 'observations') && (!Array.isArray(document.spans) || document.spans.length === 0 || has(first(document.spans), 'span_id'));
}

/** LangSmith `{post, patch}`, `{runs: [...]}` or a list of runs. */
export function isLangSmithDocument(document: unknown): boolean {
  if (isJsonObject(document)) {
    if (Object.hasOwn(document, 'post') || Object.hasOwn(document, 'patch')) return true;
    return isJsonObject(first(document.runs)) && someHas(document.runs, 'run_type');
  }
  return Array.isArray(document) && isJsonObject(first(document)) && someHas(document, 'run_type') && someHas(document, 'dotted_order');
}

/** any-agent `{spans: [{context: {...}}]}`. */
export function isAnyAgentDocument(document: unknown): boolean {
  return isJsonObject(document) && !isJsonObject(document.trace) && isJsonObject(first(document.spans)) && someHas(document.spans, 'context', true);
}

/** Vercel AI SDK spans: a list whose spans carry `spanContext`. */
export function isVercelDocument(document: unknown): boolean {
  return isJsonObject(first(document)) && someHas(document, 'spanContext', true);
}

function isAttributeValue(value: unknown): boolean {
  return value === null || typeof value !== 'object' || (Array.isArray(value) && value.every((item) => item === null || typeof item !== 'object'));
}

/**
 * A bare span attribute map: a flat object (values are text, numbers, booleans or lists of them)
 * with dotted GenAI or OpenInference keys, and no `format`.
 */
export function isSpanAttributeMap(document: unknown): boolean {
  if (!isJsonObject(document) || Object.hasOwn(document, 'format')) return false;
  const keys = Object.keys(document);
  return keys.some((key) => /^(gen_ai|llm|openinference)\.[a-z_.]+$/.test(key)) && keys.every((key) => isAttributeValue(document[key]));
}

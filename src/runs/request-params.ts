/**
 * What a recorded model call sent besides its messages (docs/replay.md, "What is sent"): its
 * sampling parameters (temperature, top_p, max_tokens, stop) and its function definitions
 * (`tools`), read from every format's spelling, so a replay or a why rerun asks the same question
 * the run asked. Values that are not usable (a "null" text, a temperature past 2) are left out.
 */
import type { RecordedStep } from './types.ts';

export interface RecordedParams {
  temperature?: number;
  top_p?: number;
  max_tokens?: number;
  stop?: string[];
}

/** One OpenAI function definition: `{ type: "function", function: { name, description?, parameters? } }`. */
export interface ToolDefinition {
  type: 'function';
  function: { name: string; description?: string; parameters?: unknown };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** JSON text parsed (once), anything else as it is; undefined for text that is not JSON. */
function parsed(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const t = value.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return undefined;
  try {
    return JSON.parse(t);
  } catch {
    return undefined;
  }
}

function numberOf(value: unknown): number | undefined {
  const x = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof x === 'number' && Number.isFinite(x) ? x : undefined;
}

/**
 * The parameter sets a step recorded, most specific first: OTel `gen_ai.request.*` (flat), the
 * OpenInference `llm.invocation_parameters` (JSON text), Langfuse's `modelParameters`, runtape's
 * `params`, the deprecated `gen_ai.request` object some exporters nest.
 */
function parameterSets(a: Record<string, unknown>): Record<string, unknown>[] {
  const sets: Record<string, unknown>[] = [];
  const genai: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(a)) if (key.startsWith('gen_ai.request.')) genai[key.slice('gen_ai.request.'.length)] = value;
  sets.push(genai);
  for (const key of ['llm.invocation_parameters', 'modelParameters', 'params', 'invocation_params']) {
    const v = parsed(a[key]);
    if (isRecord(v)) sets.push(v);
  }
  return sets;
}

/** The sampling parameters the call recorded (each only when a format gives a usable value). */
export function recordedParams(step: Pick<RecordedStep, 'attributes'>): RecordedParams {
  const out: RecordedParams = {};
  for (const set of parameterSets(step.attributes)) {
    const temperature = numberOf(set.temperature);
    if (out.temperature === undefined && temperature !== undefined && temperature >= 0 && temperature <= 2) out.temperature = temperature;
    const topP = numberOf(set.top_p);
    if (out.top_p === undefined && topP !== undefined && topP > 0 && topP <= 1) out.top_p = topP;
    const max = numberOf(set.max_tokens ?? set.max_completion_tokens ?? set.max_output_tokens);
    if (out.max_tokens === undefined && max !== undefined && Number.isInteger(max) && max >= 1) out.max_tokens = max;
    const rawStop = set.stop ?? set.stop_sequences;
    const stopValue = parsed(rawStop) ?? rawStop;
    const stop = typeof stopValue === 'string' && stopValue !== '' && stopValue !== 'null' ? [stopValue] : Array.isArray(stopValue) ? stopValue.filter((s): s is string => typeof s === 'string' && s !== '') : [];
    if (out.stop === undefined && stop.length > 0 && stop.length <= 4) out.stop = stop;
  }
  return out;
}

/** A function definition in any recorded spelling, as OpenAI's; null when it names no function. */
export function toolDefinition(value: unknown): ToolDefinition | null {
  const v = parsed(value);
  if (!isRecord(v)) return null;
  // OpenInference keeps each tool as `{ tool: { json_schema: "..." } }` or the schema text itself.
  if (isRecord(v.tool)) return toolDefinition(v.tool.json_schema ?? v.tool);
  if (v.json_schema !== undefined) return toolDefinition(v.json_schema);
  const fn = isRecord(v.function) ? v.function : v;
  const name = fn.name;
  if (typeof name !== 'string' || name === '') return null;
  const parameters = fn.parameters ?? fn.parameters_json_schema ?? fn.input_schema ?? fn.inputSchema ?? fn.args_schema;
  const out: ToolDefinition = { type: 'function', function: { name } };
  if (typeof fn.description === 'string') out.function.description = fn.description;
  const schema = parsed(parameters);
  if (isRecord(schema)) out.function.parameters = schema;
  return out;
}

function definitionsIn(value: unknown): ToolDefinition[] {
  const v = parsed(value);
  // pydantic-ai's `model_request_parameters`: `{ function_tools: [...], output_tools: [...] }`.
  const list = Array.isArray(v) ? v : isRecord(v) && Array.isArray(v.function_tools) ? v.function_tools : isRecord(v) && Array.isArray(v.tools) ? v.tools : isRecord(v) ? Object.values(v) : [];
  return list.map(toolDefinition).filter((d): d is ToolDefinition => d !== null);
}

/** `llm.tools.N.tool.json_schema` (OpenInference, flattened), in numeric order. */
function flatTools(a: Record<string, unknown>): ToolDefinition[] {
  const byIndex = new Map<number, unknown>();
  for (const [key, value] of Object.entries(a)) {
    const m = /^llm\.tools\.(\d+)\.tool\.json_schema$/.exec(key);
    if (m) byIndex.set(Number(m[1]), value);
  }
  return [...byIndex.entries()].sort((x, y) => x[0] - y[0]).map(([, v]) => toolDefinition(v)).filter((d): d is ToolDefinition => d !== null);
}

/**
 * The function definitions the call was sent: OTel `gen_ai.tool.definitions` / `gen_ai.request.tools`,
 * OpenInference `llm.tools` (one JSON text, or flattened), runtape's `tools`, Langfuse's
 * `toolDefinitions`, pydantic-ai's `model_request_parameters`, or a request input `{ messages, tools }`.
 */
export function recordedTools(step: Pick<RecordedStep, 'attributes' | 'input'>): ToolDefinition[] | undefined {
  const a = step.attributes;
  for (const key of ['gen_ai.tool.definitions', 'gen_ai.request.tools', 'llm.tools', 'tools', 'toolDefinitions', 'model_request_parameters']) {
    if (a[key] === undefined || a[key] === null) continue;
    const found = definitionsIn(a[key]);
    if (found.length > 0) return found;
  }
  const flat = flatTools(a);
  if (flat.length > 0) return flat;
  const input = step.input?.form === 'value' ? parsed(step.input.value) : undefined;
  if (isRecord(input) && Array.isArray(input.tools)) {
    const found = definitionsIn(input.tools);
    if (found.length > 0) return found;
  }
  return undefined;
}

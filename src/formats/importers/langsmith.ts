/**
 * LangSmith runs (FORMATS.md §5): the SDK's ingestion payload `{post, patch}` (merged by id,
 * patch fields winning), or a list of runs (`[...]` or `{runs: [...]}`) as the API exports them.
 * Parent from `parent_run_id`, else from `dotted_order`, whose lexicographic order is the
 * execution order. One run per `trace_id`.
 */
import { buildRun, type RunStatus, type StepDraft, type TokenUsage } from '../../runs/index.ts';
import { FormatError } from '../format-error.ts';
import { isLangSmithDocument } from '../recorded/shapes.ts';
import type { Importer } from '../importer.ts';
import { childPath, indexPath } from '../json-path.ts';
import { expectArray, expectObject, isJsonObject, ownField, type JsonObject } from '../validate.ts';
import { parseJsonKeepingBigInts } from '../recorded/big-int-json.ts';
import { optObject, optString, toCount } from '../recorded/fields.ts';
import { langsmithKind } from '../recorded/langsmith-kind.ts';
import { opening } from '../recorded/sniff.ts';
import { msOrIsoToMs } from '../recorded/times.ts';
import { describeNearMiss, nearestShape, type FormatShape } from '../nearest-shape.ts';

/** The shapes of LangSmith files, for naming the nearest when a file is refused. */
const LANGSMITH_SHAPES: readonly FormatShape[] = [
  { name: 'a LangSmith post/patch payload', paths: ['post[].run_type'] },
  { name: 'a LangSmith run list', paths: ['runs[].run_type'] },
  { name: 'a LangSmith run list', paths: ['[].run_type', '[].dotted_order'] },
];


/** A run's id: its `id`, else the last segment of its dotted order; never empty. */
function runId(run: JsonObject, path: string): string {
  const own = optString(run, 'id', path);
  const id = own !== undefined && own.trim() !== '' ? own : idFromDottedOrder(optString(run, 'dotted_order', path));
  if (id === null || id === '') throw new FormatError(childPath(path, 'id'), `${own === undefined ? 'missing' : 'empty'} (expected the run id, or a dotted_order naming it)`);
  return id;
}

/** The run list, with post and patch merged; each with its id and the path it came from. */
function runList(parsed: unknown): { run: JsonObject; path: string; id: string }[] {
  const listed = (list: unknown[], where: string) =>
    list.map((r, i) => {
      const path = indexPath(where, i);
      const run = expectObject(r, path);
      return { run, path, id: runId(run, path) };
    });
  if (Array.isArray(parsed)) return listed(parsed, '');
  const root = expectObject(parsed, '(top level)');
  if (Object.hasOwn(root, 'runs')) return listed(expectArray(ownField(root, 'runs'), 'runs'), 'runs');
  const merged = new Map<string, { run: JsonObject; path: string; id: string }>();
  for (const part of ['post', 'patch'] as const) {
    const list = ownField(root, part);
    if (list === undefined) continue;
    expectArray(list, part).forEach((r, i) => {
      const path = indexPath(part, i);
      const run = expectObject(r, path);
      // The JS SDK's patch entries carry no id: the dotted order's last segment names the run.
      const id = runId(run, path);
      const before = merged.get(id);
      merged.set(id, { run: before ? { ...before.run, ...run } : run, path: before?.path ?? path, id });
    });
  }
  if (merged.size === 0) {
    const near = nearestShape(root, LANGSMITH_SHAPES);
    throw new FormatError('', near ? `this ${describeNearMiss(near)}` : 'expected LangSmith runs: "post"/"patch" lists or a list of runs');
  }
  return [...merged.values()];
}

/** Input and output counts of a usage object in OpenAI (`prompt_tokens`) or LangChain (`input_tokens`) names. */
function countsOf(usage: JsonObject, at: string): TokenUsage | null {
  const inKey = usage.input_tokens !== undefined && usage.input_tokens !== null ? 'input_tokens' : 'prompt_tokens';
  const outKey = usage.output_tokens !== undefined && usage.output_tokens !== null ? 'output_tokens' : 'completion_tokens';
  const input = toCount(ownField(usage, inKey), childPath(at, inKey));
  const output = toCount(ownField(usage, outKey), childPath(at, outKey));
  if (input === undefined && output === undefined) return null;
  return { input: input ?? 0, output: output ?? 0 };
}

/**
 * An LLM run's tokens, the provider's report first: `outputs.usage_metadata` / `outputs.usage`
 * (the SDK wrappers), the first generation's message `usage_metadata` and `llm_output.token_usage`
 * (LangChain), then the run-level `prompt_tokens` / `completion_tokens` LangSmith's API fills in.
 */
function usageOf(run: JsonObject, outputs: JsonObject | undefined, path: string): TokenUsage | null {
  const out = childPath(path, 'outputs');
  for (const key of ['usage_metadata', 'usage']) {
    const usage = outputs ? ownField(outputs, key) : undefined;
    if (isJsonObject(usage)) {
      const counts = countsOf(usage, childPath(out, key));
      if (counts) return counts;
    }
  }
  const generations = outputs ? ownField(outputs, 'generations') : undefined;
  const first = Array.isArray(generations) && Array.isArray(generations[0]) ? (generations[0] as unknown[])[0] : undefined;
  const message = isJsonObject(first) ? ownField(first, 'message') : undefined;
  const kwargs = isJsonObject(message) ? ownField(message, 'kwargs') : undefined;
  const messageUsage = isJsonObject(kwargs) ? ownField(kwargs, 'usage_metadata') : undefined;
  if (isJsonObject(messageUsage)) {
    const counts = countsOf(messageUsage, `${indexPath(indexPath(childPath(out, 'generations'), 0), 0)}.message.kwargs.usage_metadata`);
    if (counts) return counts;
  }
  const llmOutput = outputs ? ownField(outputs, 'llm_output') : undefined;
  const tokenUsage = isJsonObject(llmOutput) ? ownField(llmOutput, 'token_usage') : undefined;
  if (isJsonObject(tokenUsage)) {
    const counts = countsOf(tokenUsage, childPath(childPath(out, 'llm_output'), 'token_usage'));
    if (counts) return counts;
  }
  const runLevel = countsOf(run, path);
  return runLevel && (runLevel.input > 0 || runLevel.output > 0) ? runLevel : null;
}

/** The run a dotted order ends with. */
function idFromDottedOrder(dotted: string | undefined): string | null {
  if (!dotted) return null;
  return dotted.split('.').pop()!.replace(/^\d{8}T\d{6}\d*Z/, '');
}

/** The parent named by a dotted order: the run id in the second-to-last segment. */
function parentFromDottedOrder(dotted: string | undefined): string | null {
  if (!dotted) return null;
  const segments = dotted.split('.');
  if (segments.length < 2) return null;
  return segments[segments.length - 2].replace(/^\d{8}T\d{6}\d*Z/, '');
}

export function readLangSmith(text: string) {
  const runs = runList(parseJsonKeepingBigInts(text));
  const byTrace = new Map<string, { step: StepDraft; dotted: string; status?: string }[]>();
  for (const { run, path, id } of runs) {
    const dotted = optString(run, 'dotted_order', path);
    const runType = optString(run, 'run_type', path) ?? 'chain';
    const kind = langsmithKind(runType) ?? 'other';
    const extra = optObject(run, 'extra', path);
    const metadata = extra && isJsonObject(extra.metadata) ? extra.metadata : {};
    const invocation = extra && isJsonObject(extra.invocation_params) ? extra.invocation_params : {};
    const inputs = optObject(run, 'inputs', path);
    const outputs = optObject(run, 'outputs', path);
    const modelName = [metadata.ls_model_name, invocation.model, inputs?.model].find((m) => typeof m === 'string');
    const step: StepDraft = {
      id,
      parent: optString(run, 'parent_run_id', path) ?? parentFromDottedOrder(dotted),
      name: optString(run, 'name', path) ?? runType,
      kind,
      start: msOrIsoToMs(ownField(run, 'start_time'), childPath(path, 'start_time')),
      end: msOrIsoToMs(ownField(run, 'end_time'), childPath(path, 'end_time')),
      model: kind === 'llm' && typeof modelName === 'string' ? modelName : null,
      usage: kind === 'llm' ? usageOf(run, outputs, path) : null,
      error: optString(run, 'error', path) ?? null,
      attributes: { run_type: runType, ...(dotted ? { dotted_order: dotted } : {}), tags: ownField(run, 'tags') ?? [], metadata },
    };
    // LangChain's agents (create_agent, deep agents' subagents) tag every run inside them with their name.
    const agentName = metadata.lc_agent_name;
    if (typeof agentName === 'string' && agentName.trim() !== '') step.agent = agentName;
    if (inputs) step.input = { form: 'value', value: inputs, ...(kind === 'tool' ? { role: 'tool' } : {}) };
    if (outputs) step.output = { form: 'value', value: outputs, ...(kind === 'tool' ? { role: 'tool' } : {}) };
    const traceId = optString(run, 'trace_id', path) ?? (dotted ? dotted.split('.')[0].replace(/^\d{8}T\d{6}\d*Z/, '') : id);
    const list = byTrace.get(traceId) ?? [];
    list.push({ step, dotted: dotted ?? '', status: optString(run, 'status', path) });
    byTrace.set(traceId, list);
  }
  const result = [...byTrace.entries()].map(([traceId, entries]) => {
    const ranked = [...entries].sort((a, b) => (a.dotted < b.dotted ? -1 : a.dotted > b.dotted ? 1 : 0));
    ranked.forEach((e, i) => (e.step.order = i));
    const root = entries.find((e) => e.step.id === traceId);
    const status: RunStatus | undefined = root?.status === 'success' ? 'ok' : root?.status === 'error' ? 'error' : undefined;
    return buildRun({ id: traceId, steps: entries.map((e) => e.step), ...(status ? { status } : {}) });
  });
  return { format: 'langsmith', runs: result };
}

export const langsmithImporter: Importer = {
  label: 'LangSmith runs (post/patch payloads or run lists)',
  sniff: (text) => {
    const head = opening(text, 512);
    return /^\{"(post|patch)":\[/.test(head) || (/^\{"runs":\[\{/.test(head) && head.includes('"run_type"')) || (/^\[\{/.test(head) && opening(text).includes('"run_type"') && opening(text).includes('"dotted_order"'));
  },
  recognize: (parsed) => isLangSmithDocument(parsed),
  shapes: LANGSMITH_SHAPES,
  import: (text) => ({ kind: 'runs', runs: readLangSmith(text) }),
};

/**
 * LangSmith runs (FORMATS.md §5): the SDK's ingestion payload `{post, patch}` (merged by id,
 * patch fields winning), or a list of runs (`[...]` or `{runs: [...]}`) as the API exports them.
 * Parent from `parent_run_id`, else from `dotted_order`, whose lexicographic order is the
 * execution order. One run per `trace_id`.
 */
import { buildRun } from '../../runs/build-run.ts';
import type { RunStatus, StepDraft, StepKind, TokenUsage } from '../../runs/types.ts';
import { FormatError } from '../format-error.ts';
import type { Importer } from '../importer.ts';
import { childPath, indexPath } from '../json-path.ts';
import { expectArray, expectObject, isJsonObject, ownField, type JsonObject } from '../validate.ts';
import { parseJsonKeepingBigInts } from '../recorded/big-int-json.ts';
import { optObject, optString, requireString, toCount } from '../recorded/fields.ts';
import { opening } from '../recorded/sniff.ts';
import { msOrIsoToMs } from '../recorded/times.ts';

const RUN_KIND: Record<string, StepKind> = { llm: 'llm', chain: 'chain', tool: 'tool', retriever: 'retriever', prompt: 'other', parser: 'other', embedding: 'other' };

/** The run list, with post and patch merged; each with the path it came from. */
function runList(parsed: unknown): { run: JsonObject; path: string }[] {
  if (Array.isArray(parsed)) return parsed.map((r, i) => ({ run: expectObject(r, indexPath('', i)), path: indexPath('', i) }));
  const root = expectObject(parsed, '(top level)');
  if (Object.hasOwn(root, 'runs')) return expectArray(ownField(root, 'runs'), 'runs').map((r, i) => ({ run: expectObject(r, indexPath('runs', i)), path: indexPath('runs', i) }));
  const merged = new Map<string, { run: JsonObject; path: string }>();
  for (const part of ['post', 'patch'] as const) {
    const list = ownField(root, part);
    if (list === undefined) continue;
    expectArray(list, part).forEach((r, i) => {
      const path = indexPath(part, i);
      const run = expectObject(r, path);
      // The JS SDK's patch entries carry no id: the dotted order's last segment names the run.
      const id = optString(run, 'id', path) ?? idFromDottedOrder(optString(run, 'dotted_order', path));
      if (id === null || id === '') throw new FormatError(childPath(path, 'id'), 'missing (expected the run id, or a dotted_order naming it)');
      const before = merged.get(id);
      merged.set(id, { run: before ? { ...before.run, ...run } : run, path: before?.path ?? path });
    });
  }
  if (merged.size === 0) throw new FormatError('', 'expected LangSmith runs: "post"/"patch" lists or a list of runs');
  return [...merged.values()];
}

function usageOf(outputs: JsonObject | undefined, path: string): TokenUsage | null {
  const usage = outputs && isJsonObject(outputs.usage_metadata) ? outputs.usage_metadata : outputs && isJsonObject(outputs.usage) ? outputs.usage : undefined;
  if (!usage) return null;
  const at = childPath(path, 'outputs.usage_metadata');
  const input = toCount(usage.input_tokens ?? usage.prompt_tokens, childPath(at, 'input_tokens'));
  const output = toCount(usage.output_tokens ?? usage.completion_tokens, childPath(at, 'output_tokens'));
  if (input === undefined && output === undefined) return null;
  return { input: input ?? 0, output: output ?? 0 };
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
  for (const { run, path } of runs) {
    const id = requireString(run, 'id', path);
    const dotted = optString(run, 'dotted_order', path);
    const runType = optString(run, 'run_type', path) ?? 'chain';
    const kind = Object.hasOwn(RUN_KIND, runType) ? RUN_KIND[runType] : 'other';
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
      usage: kind === 'llm' ? usageOf(outputs, path) : null,
      error: optString(run, 'error', path) ?? null,
      attributes: { run_type: runType, ...(dotted ? { dotted_order: dotted } : {}), tags: ownField(run, 'tags') ?? [], metadata },
    };
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
  import: (text) => ({ kind: 'runs', runs: readLangSmith(text) }),
};

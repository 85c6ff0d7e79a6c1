/**
 * Every real trace in ../shared/samples imports: the normalised model of each
 * file is snapshotted, and the counts below were checked by hand against the files (FORMATS.md,
 * SOURCES.md). The samples live outside the repository and are never copied into it.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runUsage, inspectFiles, readStepMessages, type RecordedRun, type RecordedRunFile } from '../../runs/index.ts';
import { parseInputFile } from '../detect.ts';
import { NO_SAMPLES, sharedSamplesDir } from '../test-helpers.ts';

const SAMPLES = sharedSamplesDir() ?? '';
const present = SAMPLES !== '';
if (!present) console.warn(NO_SAMPLES);

function walk(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : /\.(json|jsonl)$/.test(name) ? [join(dir, name)] : []));
}

function load(path: string): RecordedRunFile {
  const name = relative(SAMPLES, path).split('/').slice(-2).join('/');
  const input = parseInputFile(readFileSync(path, 'utf8'), name);
  if (input.kind !== 'runs') throw new Error(`${path} read as ${input.kind}`);
  return input.runs;
}

function sample(path: string): RecordedRunFile {
  return load(join(SAMPLES, path));
}

function kinds(run: RecordedRun): Record<string, number> {
  const out: Record<string, number> = {};
  for (const s of run.steps) out[s.kind] = (out[s.kind] ?? 0) + 1;
  return out;
}

describe.skipIf(!present)('sample traces', () => {
  const files = present ? walk(SAMPLES).filter((f) => !f.includes('/whowhen/')) : [];

  for (const file of files) {
    it(`imports ${relative(SAMPLES, file)}`, () => {
      const result = load(file);
      expect(inspectFiles([result])).toMatchSnapshot();
      // Every step's messages parse (or come back as raw text) without throwing.
      for (const run of result.runs) for (const step of run.steps) for (const which of ['input', 'output'] as const) readStepMessages(step, which);
    });
  }

  it('Tempo export: 86 spans, 9 whose parent is not in the file, one model call in three spans counted once', () => {
    const [run] = sample('otel-genai/agentevals_kagent_tempo_export_with_batches.json').runs;
    expect(run.steps).toHaveLength(86);
    expect(run.steps.filter((s) => s.detached?.reason === 'missing')).toHaveLength(9);
    expect(kinds(run)).toEqual({ other: 77, agent: 2, llm: 6, tool: 1 });
    const counted = run.steps.filter((s) => s.usage !== null);
    // The provider's call (the innermost) carries them; ADK's wrappers keep theirs as wrappedUsage.
    expect(counted.map((s) => s.name)).toEqual(['openai.chat', 'openai.chat']);
    const wrapped = run.steps.filter((s) => s.wrappedUsage !== undefined);
    expect(wrapped.map((s) => s.name).sort()).toEqual(['call_llm', 'call_llm', 'generate_content gpt-4.1-mini', 'generate_content gpt-4.1-mini']);
    expect(runUsage(run)).toEqual({ input: counted[0].usage!.input + counted[1].usage!.input, output: counted[0].usage!.output + counted[1].usage!.output });
    expect(run.steps.every((s) => /^[0-9a-f]{16}$/.test(s.id))).toBe(true);
  });

  it('the two encodings of the same OpenLLMetry spans (base64 OTLP, 0x console exporter) give the same tree', () => {
    const otlp = sample('otel-genai/runtape-fixture_openllmetry-0.62.4.otlp.json');
    const console = sample('otel-genai/variants/runtape-fixture_openllmetry-0.62.4.console-exporter.json');
    const shape = (f: RecordedRunFile) => f.runs.map((r) => ({ id: r.id, steps: r.steps.map((s) => ({ id: s.id, parent: s.parent, name: s.name, kind: s.kind, usage: s.usage, model: s.model, input: readStepMessages(s, 'input'), output: readStepMessages(s, 'output') })) }));
    expect(shape(console)).toEqual(shape(otlp));
    // The console exporter keeps microseconds, OTLP nanoseconds: the times agree to 1 µs.
    const times = (f: RecordedRunFile) => f.runs[0].steps.flatMap((s) => [s.start!, s.end!]);
    times(console).forEach((t, i) => expect(Math.abs(t - times(otlp)[i])).toBeLessThan(0.001));
    expect(otlp.runs[0].id).toBe('51c62d42f487cb6791932baa0b5caeff');
    expect(kinds(otlp.runs[0])).toEqual({ other: 1, llm: 3 });
  });

  it('one LLM call in both vocabularies (OpenInference and OTel GenAI attribute maps) reads the same', () => {
    const oi = sample('openinference/openinference-genai_fixture_openinference_client_span_tool_calls.attrs.json').runs[0].steps[0];
    const genai = sample('otel-genai/variants/openinference-genai_fixture_otel_genai_client_span_tool_calls.attrs.json').runs[0].steps[0];
    expect([oi.kind, genai.kind]).toEqual(['llm', 'llm']);
    expect(oi.usage).toEqual(genai.usage);
    const roles = (s: typeof oi, w: 'input' | 'output') => readStepMessages(s, w).map((m) => [m.role, m.text.trim(), (m.toolCalls ?? []).map((c) => c.name)]);
    expect(roles(oi, 'input')).toEqual(roles(genai, 'input'));
    expect(roles(oi, 'output')).toEqual(roles(genai, 'output'));
  });

  it('ADK failed tool: the execute_tool step carries TOOL_ERROR; wrapped generate_content tokens are counted once', () => {
    const [run] = sample('otel-genai/agentevals_adk_py_v2_default_S6b_tool_error.otlp.json').runs;
    expect(run.steps.filter((s) => s.error).map((s) => [s.kind, s.error])).toEqual([['tool', 'TOOL_ERROR']]);
    expect(run.steps.filter((s) => s.kind === 'llm' && s.usage).map((s) => s.name)).toEqual(['generate_content gemini-2.5-flash', 'generate_content gemini-2.5-flash']);
    expect(run.status).toBe('unknown');
  });

  it('hand-built cycle: the second trace is kept and its cycle broken', () => {
    const { runs } = sample('otel-genai/agentevals_hand_two_span_cycle.otlp.json');
    expect(runs).toHaveLength(2);
    expect(runs[1].steps).toHaveLength(2);
    expect(runs[1].steps[0].detached?.reason).toBe('cycle');
  });

  it('Langfuse C# export: one orphan kept; the trace is the root', () => {
    const [run] = sample('langfuse/langfuse-repo_csharp-agent-with-gemini-2026-03-09.trace.json').runs;
    expect(run.steps).toHaveLength(9);
    expect(run.steps.filter((s) => s.detached)).toHaveLength(1);
    expect(run.steps.find((s) => s.id === '933dba1e9783f89d5d8bb032f041a2de')).toMatchObject({ depth: 0, name: 'Insights Agent C#', kind: 'chain' });
    expect(run.steps.find((s) => s.detached)).toMatchObject({ depth: 0, detached: { reason: 'missing' } });
  });

  it('runtape AgentDojo: 4 request/response pairs as 4 LLM steps, tokens as recorded, history resolved from base + messages_append', () => {
    const [run] = sample('runtape/runtape_agentdojo_sarvam-105b_banking-user_task_0-injection_task_3.jsonl').runs;
    expect(kinds(run)).toEqual({ chain: 1, llm: 4 });
    expect(runUsage(run)).toEqual({ input: 1702 + 1907 + 2362 + 2494, output: 101 + 312 + 1218 + 131 });
    const lengths = run.steps.filter((s) => s.kind === 'llm').map((s) => readStepMessages(s, 'input').length);
    expect(lengths.every((n, i) => i === 0 || n > lengths[i - 1])).toBe(true);
    expect(run.status).toBe('ok');
  });

  it('runtape: a torn last line is ignored, a bad line elsewhere is an error naming it', () => {
    const text = readFileSync(join(SAMPLES, 'runtape/runtape_bench_gpt-oss-120b_ops-002.jsonl'), 'utf8').trimEnd();
    const lines = text.split('\n');
    const torn = `${lines.join('\n')}\n${lines[lines.length - 1].slice(0, 20)}`;
    const input = parseInputFile(torn, 'torn.jsonl');
    expect(input.kind === 'runs' && input.runs.runs[0].steps.length).toBe(6);
    const broken = [lines[0], lines[1].slice(0, 30), ...lines.slice(2)].join('\n');
    expect(() => parseInputFile(broken, 'broken.jsonl')).toThrow(/^line 2: invalid JSON/);
  });

  it('any-agent: 64/128-bit integer ids are read without rounding', () => {
    const [run] = sample('other/any-agent/any-agent_OPENAI_trace.json').runs;
    expect(run.id).toBe(BigInt('100927429609276267646756448943279827607').toString(16).padStart(32, '0'));
    expect(run.steps.some((s) => s.id === BigInt('9295669169508793927').toString(16).padStart(16, '0'))).toBe(true);
    expect(kinds(run)).toEqual({ agent: 1, llm: 3, tool: 2 });
  });

  it('LangSmith JS payload: a patch without id is merged by its dotted order; epoch-ms times', () => {
    const [run] = sample('langsmith/langsmith-sdk_js_wrap_openai_reasoning.post-patch.json').runs;
    expect(run.steps).toHaveLength(1);
    expect(run.steps[0]).toMatchObject({ kind: 'llm', model: 'o1-mini', usage: { input: 43, output: 1901 }, start: 1728803138291, end: 1728803148730 });
  });
});

describe.skipIf(!present)('Who&When logs', () => {
  const runs = present ? ['algorithm', 'hand'].flatMap((sub) => walk(join(SAMPLES, 'whowhen', sub)).flatMap((f) => load(f).runs)) : [];

  it('184 runs: 126 Algorithm-Generated, 58 Hand-Crafted, each step one history entry, labels kept', () => {
    expect(runs).toHaveLength(184);
    expect(runs.filter((r) => r.group === 'Algorithm-Generated')).toHaveLength(126);
    expect(runs.filter((r) => r.group === 'Hand-Crafted')).toHaveLength(58);
    expect(runs.every((r) => r.label !== undefined && r.label.step < r.steps.length && r.status === 'error')).toBe(true);
    const summary = runs.map((r) => `${r.id} ${r.steps.length} steps ${JSON.stringify(kinds(r))} label ${r.label!.agent}@${r.label!.step}`);
    expect(summary).toMatchSnapshot();
  });

  it('hand/30 has 130 turns; speakers are agents before " (" and terminals are tool steps', () => {
    const run = runs.find((r) => r.id === 'hand/30')!;
    expect(run.steps.length).toBeGreaterThanOrEqual(5);
    expect(runs.reduce((m, r) => Math.max(m, r.steps.length), 0)).toBe(130);
    const hand = runs.find((r) => r.id === 'hand/1')!;
    expect(hand.steps.slice(0, 4).map((s) => s.name)).toEqual(['human', 'Orchestrator', 'Orchestrator', 'Orchestrator']);
    expect(runs.flatMap((r) => r.steps).filter((s) => /terminal/i.test(s.name)).every((s) => s.kind === 'tool')).toBe(true);
  });

  it('keeps the label quirks: the labelled step is spoken by another agent in 6 logs (5 in FORMATS.md, plus hand/20, a delegation to the labelled agent)', () => {
    const odd = runs.filter((r) => (r.steps[r.label!.step].agent ?? '').toLowerCase() !== r.label!.agent.toLowerCase()).map((r) => r.id);
    expect(odd).toEqual(['algorithm/14', 'algorithm/15', 'algorithm/59', 'hand/20', 'hand/22', 'hand/49']);
  });
});

/**
 * Every recorded-run importer on a small file of our own (`fixtures/`, written by hand in the
 * shapes of the real exports), so the importers are tested on a fresh clone without ../shared.
 * Each fixture also reproduces what real files got wrong: wrapped calls' tokens, OpenLit's
 * message events, LangSmith's span kinds and its run lists' token fields.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runUsage, readStepMessages, type RecordedRun, type RecordedRunFile } from '../../runs/index.ts';
import { parseInputFile } from '../detect.ts';
import { formatErrorOf } from '../test-helpers.ts';

function fixtureText(name: string): string {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
}

function open(name: string): RecordedRunFile {
  const input = parseInputFile(fixtureText(name), name);
  if (input.kind !== 'runs') throw new Error(`${name} read as ${input.kind}`);
  return input.runs;
}

/** Each step as "name:kind", in order: one line to compare a run's outline. */
const stepKinds = (run: RecordedRun) => run.steps.map((s) => `${s.name}:${s.kind}`);

function byName(run: RecordedRun, name: string) {
  const step = run.steps.find((s) => s.name === name);
  if (!step) throw new Error(`no step ${name} in ${run.steps.map((s) => s.name).join(', ')}`);
  return step;
}

describe('recorded-run fixtures of our own', () => {
  it.each([
    ['openlit-langchain.otlp.json', 'otel-genai', 5],
    ['smol-agent.openinference.otlp.json', 'openinference', 3],
    ['agno-vercel.langfuse.trace.json', 'langfuse', 7],
    ['refund-chain.langsmith.runs.json', 'langsmith', 5],
    ['refund-bot.runtape.jsonl', 'runtape', 4],
    ['whowhen/hand/7.json', 'whowhen', 6],
    ['refund-agent.any-agent.json', 'any-agent', 2],
    ['refund.vercel-ai.json', 'vercel-ai', 2],
    ['refund.agentops.json', 'agentops', 2],
    ['tool-call.attrs.json', 'otel-genai', 1],
  ])('%s reads as %s with %i steps', (name, format, steps) => {
    const file = open(name);
    expect(file.format).toBe(format);
    expect(file.runs).toHaveLength(1);
    expect(file.runs[0].steps).toHaveLength(steps);
    structuredClone(file);
  });

  it('a predictions file reads as predictions', () => {
    expect(parseInputFile(fixtureText('refund.predictions.json'), 'refund.predictions.json')).toEqual({ kind: 'predictions', predictions: { 'hand/7': { agent: 'WebSurfer', step: 3 } } });
  });

  it("OpenLit's LangChain-level span estimates 399 output tokens; the provider's call inside says 7, and only that counts", () => {
    const [run] = open('openlit-langchain.otlp.json').runs;
    const outer = byName(run, 'langchain.chat_models.ChatOpenAI');
    const inner = byName(run, 'openai.chat.completions');
    expect(outer.usage).toBeNull();
    expect(outer.wrappedUsage).toEqual({ input: 31, output: 399 });
    expect(inner.usage).toEqual({ input: 28, output: 7 });
    expect(runUsage(run)).toEqual({ input: 28, output: 7 });
  });

  it('OTLP and Tempo read spans under the older instrumentationLibrarySpans when scopeSpans is null, and name that key in errors', () => {
    const request = JSON.parse(fixtureText('openlit-langchain.otlp.json')) as { resourceSpans: Record<string, unknown>[] };
    const older = request.resourceSpans.map(({ scopeSpans, ...rest }) => ({ ...rest, scopeSpans: null, instrumentationLibrarySpans: scopeSpans }));
    const asRuns = (value: unknown, name: string): RecordedRunFile => {
      const input = parseInputFile(JSON.stringify(value), name);
      if (input.kind !== 'runs') throw new Error(`${name} read as ${input.kind}`);
      return input.runs;
    };
    expect(asRuns({ resourceSpans: older }, 'older.otlp.json').runs[0].steps).toHaveLength(5);
    expect(asRuns({ batches: older }, 'older.tempo.json').runs[0].steps).toHaveLength(5);
    const broken = [{ ...older[0], instrumentationLibrarySpans: [{ spans: 'none' }] }];
    expect(formatErrorOf(() => parseInputFile(JSON.stringify({ resourceSpans: broken }), 'x.json')).message).toContain('resourceSpans[0].instrumentationLibrarySpans[0].spans');
  });

  it("OpenLit's gen_ai.content.prompt / gen_ai.content.completion events carry the messages", () => {
    const [run] = open('openlit-langchain.otlp.json').runs;
    const inner = byName(run, 'openai.chat.completions');
    expect(readStepMessages(inner, 'input')).toEqual([{ role: 'user', text: 'user: Which city hosts the refund desk?' }]);
    expect(readStepMessages(inner, 'output')).toEqual([{ role: 'assistant', text: 'The refund desk is in Lyon.' }]);
  });

  it('LangSmith-exported prompt templates and parsers are not model calls, whatever gen_ai.operation.name says', () => {
    const [run] = open('openlit-langchain.otlp.json').runs;
    expect(stepKinds(run)).toEqual(['RunnableSequence:chain', 'ChatPromptTemplate:other', 'langchain.chat_models.ChatOpenAI:llm', 'openai.chat.completions:llm', 'StrOutputParser:other']);
  });

  it("Langfuse: Agno's OpenAIChat.invoke and the AI SDK's ai.generateText count their provider call's usage, once", () => {
    const [run] = open('agno-vercel.langfuse.trace.json').runs;
    expect(byName(run, 'OpenAIChat.invoke').usage).toBeNull();
    expect(byName(run, 'chat gpt-4o-mini').usage).toEqual({ input: 121, output: 7 });
    expect(byName(run, 'ai.generateText').usage).toBeNull();
    expect(byName(run, 'ai.generateText').wrappedUsage).toEqual({ input: 90, output: 20 });
    expect(byName(run, 'ai.generateText.doGenerate').usage).toEqual({ input: 60, output: 12 });
    expect(runUsage(run)).toEqual({ input: 181, output: 19 });
    expect(byName(run, 'lookup_policy')).toMatchObject({ kind: 'tool', error: 'policy service timed out' });
  });

  it('LangSmith run lists: run-level counts, LangChain message usage_metadata and llm_output.token_usage; prompt runs are other', () => {
    const [run] = open('refund-chain.langsmith.runs.json').runs;
    expect(run.steps.map((s) => [s.name, s.kind, s.usage])).toEqual([
      ['RefundChain', 'chain', null],
      ['ChatPromptTemplate', 'other', null],
      ['ChatOpenAI', 'llm', { input: 25, output: 6 }],
      ['ChatOpenAI', 'llm', { input: 40, output: 2 }],
      ['OpenAI', 'llm', { input: 17, output: 3 }],
    ]);
    expect(run.status).toBe('ok');
    expect(run.steps[3].model).toBe('gpt-4o-mini');
  });

  it('a LangSmith run id is never empty: an empty id falls back to the dotted order, else is an error naming it', () => {
    const runs = JSON.parse(fixtureText('refund-chain.langsmith.runs.json')) as Record<string, unknown>[];
    runs[2].id = '';
    const input = parseInputFile(JSON.stringify(runs), 'x.json');
    if (input.kind !== 'runs') throw new Error('not runs');
    expect(input.runs.runs[0].steps.map((s) => s.id)).toContain('0193a1b2-0000-7000-8000-000000000003');
    delete runs[2].dotted_order;
    expect(formatErrorOf(() => parseInputFile(JSON.stringify(runs), 'x.json')).message).toBe('[2].id: empty (expected the run id, or a dotted_order naming it)');
  });

  it('runtape: a request and its response are one step; a base chain resolves to the full message list', () => {
    const [run] = open('refund-bot.runtape.jsonl').runs;
    expect(stepKinds(run)).toEqual(['refund-bot:chain', 'llm gpt-4o-mini:llm', 'read_policy:tool', 'llm gpt-4o-mini:llm']);
    expect(readStepMessages(run.steps[3], 'input').map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool']);
    expect(runUsage(run)).toEqual({ input: 82, output: 14 });
  });

  it('Who&When: speakers before " (", the terminal as a tool step, the label and the run id from the folder', () => {
    const [run] = open('whowhen/hand/7.json').runs;
    expect(run.id).toBe('hand/7');
    expect(run.label).toEqual({ agent: 'WebSurfer', step: 3 });
    expect(stepKinds(run)).toEqual(['human:other', 'Orchestrator:agent', 'Orchestrator:agent', 'WebSurfer:agent', 'ComputerTerminal:tool', 'Orchestrator:agent']);
  });

  it('any-agent, Vercel AI SDK and AgentOps: ids, times and tokens', () => {
    const [anyAgent] = open('refund-agent.any-agent.json').runs;
    // The decimal span ids in hex, from python3: format(12345678901234567890, '016x'), format(9876543210987654321, '016x').
    expect(anyAgent.steps.map((s) => s.id)).toEqual(['ab54a98ceb1f0ad2', '891087b8e3b70cb1']);
    expect(anyAgent.steps[1].usage).toEqual({ input: 44, output: 6 });
    const [vercel] = open('refund.vercel-ai.json').runs;
    expect(vercel.steps.map((s) => [s.name, s.kind, s.usage])).toEqual([
      ['ai.generateText', 'chain', null],
      ['ai.generateText.doGenerate', 'llm', { input: 12, output: 5 }],
    ]);
    expect(vercel.steps[1].start).toBe(1764583200100);
    const [agentops] = open('refund.agentops.json').runs;
    expect(agentops.steps[1]).toMatchObject({ kind: 'llm', model: 'gpt-4o-mini', usage: { input: 481, output: 12 } });
    expect(readStepMessages(agentops.steps[1], 'output')).toEqual([{ role: 'assistant', text: 'Within 30 days.' }]);
  });
});

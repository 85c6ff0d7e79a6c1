/**
 * A refused JSON file is told the format it comes nearest to and what it lacks, not every format
 * we read. Tried on our own fixtures: each one matches its own shape whole, and each damaged the
 * way a hand-made or re-serialised export is (a key missing, snake_case keys, an empty list) is
 * named after its own format.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { IMPORTERS, parseInputFile } from './detect.ts';
import { FormatError } from './format-error.ts';
import { nearestShape, scoreShape } from './nearest-shape.ts';

const fixture = (name: string): string => readFileSync(new URL(`./recorded/fixtures/${name}`, import.meta.url), 'utf8');
const SHAPES = IMPORTERS.flatMap((importer) => importer.shapes ?? []);

function refusal(document: unknown, name = 'x.json'): string {
  try {
    parseInputFile(JSON.stringify(document), name);
  } catch (error) {
    if (error instanceof FormatError) return error.message;
    throw error;
  }
  throw new Error('expected the file to be refused');
}

/** Every `key` anywhere in a JSON value renamed by `rename`. */
function renameKeys(value: unknown, rename: (key: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => renameKeys(item, rename));
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [rename(key), renameKeys(item, rename)]));
}

const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

describe('the nearest shape of a refused file', () => {
  const own: [string, string][] = [
    ['openlit-langchain.otlp.json', 'an OTLP request envelope'],
    ['agno-vercel.langfuse.trace.json', 'a Langfuse trace export'],
    ['refund.agentops.json', 'an AgentOps trace export'],
    ['refund-chain.langsmith.runs.json', 'a LangSmith run list'],
    ['refund-agent.any-agent.json', 'an any-agent trace'],
    ['refund.vercel-ai.json', 'a list of Vercel AI SDK spans'],
  ];
  it.each(own)('%s matches its own shape whole, nearest of all', (name, shape) => {
    const near = nearestShape(JSON.parse(fixture(name)), SHAPES);
    expect(near?.shape.name).toBe(shape);
    expect(near?.score).toBe(1);
  });

  it('an OTLP request with snake_case keys (protobuf field names) is told so', () => {
    const document = renameKeys(JSON.parse(fixture('openlit-langchain.otlp.json')), snake);
    expect(refusal(document, 'otlp.json')).toBe('"otlp.json" looks like an OTLP request envelope but has no resourceSpans[].scopeSpans[].spans: it has resource_spans for resourceSpans, scope_spans for scopeSpans');
  });

  it('an OTLP request without spans says where they should be', () => {
    const document = JSON.parse(fixture('openlit-langchain.otlp.json')) as { resourceSpans: { scopeSpans?: unknown }[] };
    for (const rs of document.resourceSpans) delete rs.scopeSpans;
    expect(refusal(document)).toMatch(/^this looks like an OTLP request envelope but has no resourceSpans\[\]\.scopeSpans\[\]\.spans: resourceSpans\[0\] has no scopeSpans \(it has resource\)$/);
    expect(refusal({ resourceSpans: [] })).toBe('this looks like an OTLP request envelope but has no resourceSpans[].scopeSpans[].spans: resourceSpans is an empty list');
  });

  it('a Langfuse trace without its observations, and a Jaeger export without spans, are named', () => {
    const langfuse = JSON.parse(fixture('agno-vercel.langfuse.trace.json')) as { observations?: unknown };
    delete langfuse.observations;
    expect(refusal(langfuse, 'lf.json')).toMatch(/^"lf\.json" looks like a Langfuse trace export but has no observations: the top level has no observations \(it has trace\)$/);
    expect(refusal({ data: [{ traceID: 'abc', processes: {} }] })).toBe('this looks like a Jaeger export but has no data[].spans: data[0] has no spans (it has traceID, processes)');
  });

  it("AgentOps spans whose ids are spelled spanId are told the key it expects", () => {
    const document = renameKeys(JSON.parse(fixture('refund.agentops.json')), (key) => (key === 'span_id' ? 'spanId' : key));
    expect(refusal(document)).toContain('looks like an AgentOps trace export but has no spans[].span_id: it has spanId for span_id');
  });

  it('a file near none of the shapes still lists every format', () => {
    expect(refusal({ hello: 1 })).toMatch(/^format: missing: a JSON input names its format \(this reads: /);
    // A bare list near no shape is said briefly (detect.test.ts), without the list of formats.
    expect(refusal([1, 2, 3])).toMatch(/is a JSON array of 3 numbers, not a trace/);
    // A file that names a format of its own is told that format is unknown, whatever its keys.
    expect(refusal({ format: 'langfuse', trace: { id: 't' } })).toMatch(/^format: unknown format "langfuse"/);
  });

  it('scores by the share of the keys found, a key spelled another way counting half', () => {
    const shape = { name: 'x', paths: ['a[].b.c'] };
    expect(scoreShape({ a: [{ b: { c: 1 } }] }, shape)?.score).toBe(1);
    expect(scoreShape({ a: [{ b: {} }] }, shape)?.score).toBeCloseTo(2 / 3);
    expect(scoreShape({ A: [{ b: { c: 1 } }] }, shape)?.score).toBeCloseTo(2.5 / 3);
    expect(scoreShape({ z: 1 }, shape)).toBeNull();
    // The item of a list that goes furthest is the one described.
    expect(scoreShape({ a: [{}, { b: {} }] }, shape)?.problem).toBe('a[1].b has no c (it is an empty object)');
  });
});

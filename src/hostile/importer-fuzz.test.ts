/**
 * Importer fuzzing: valid files of every format, damaged in the ways strangers' files
 * are (fields dropped, types changed, deep nesting, huge numbers and strings, prototype names as
 * keys, truncation). Every input must give either a valid result, which can be cloned to a worker,
 * or one clear FormatError; never another exception, a hang or a crash.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseInputFile } from '../formats/detect.ts';
import { FormatError } from '../formats/format-error.ts';
import { isJson, NO_SAMPLES, sharedSamplesDir } from '../formats/test-helpers.ts';

const ROOT = join(import.meta.dirname, '../..');
const RECORDED = join(ROOT, 'src/formats/recorded/fixtures');
const SAMPLES = sharedSamplesDir();
if (SAMPLES === null) console.warn(`${NO_SAMPLES}; the fuzzing seeds are the repository's own fixtures`);

/**
 * Valid files, at least one per format: the repository's own fixtures always, and a few real
 * samples when ../shared is beside the checkout (read in place, never copied).
 */
const SEEDS: { name: string; path: string }[] = [
  { name: 'refund-policy.trace.json', path: join(ROOT, 'src/formats/fixtures/refund-policy.trace.json') },
  { name: 'refund-policy.trace.jsonl', path: join(ROOT, 'src/formats/fixtures/refund-policy.trace.jsonl') },
  { name: 'three-steps.game.json', path: join(ROOT, 'src/formats/fixtures/three-steps.game.json') },
  ...[
    'openlit-langchain.otlp.json',
    'smol-agent.openinference.otlp.json',
    'agno-vercel.langfuse.trace.json',
    'refund-chain.langsmith.runs.json',
    'refund-bot.runtape.jsonl',
    'whowhen/hand/7.json',
    'refund-agent.any-agent.json',
    'refund.vercel-ai.json',
    'refund.agentops.json',
    'tool-call.attrs.json',
    'refund.predictions.json',
  ].map((name) => ({ name, path: join(RECORDED, name) })),
  ...(SAMPLES === null
    ? []
    : [
        { name: 'langfuse.json', path: join(SAMPLES, 'langfuse/langfuse-repo_microsoft-agent-2025-12-17.trace.json') },
        { name: 'openinference.attrs.json', path: join(SAMPLES, 'openinference/openinference-genai_fixture_openinference_client_span_tool_calls.attrs.json') },
        { name: 'otel.otlp.json', path: join(SAMPLES, 'otel-genai/agentevals_hand_failed_inference_then_retry.otlp.json') },
        { name: 'langsmith.json', path: join(SAMPLES, 'langsmith/langsmith-sdk_py_wrap_openai_default.post-patch.json') },
        { name: 'runtape.jsonl', path: join(SAMPLES, 'runtape/runtape_bench_gpt-oss-120b_ops-002.jsonl') },
        { name: 'whowhen.json', path: join(SAMPLES, 'whowhen/hand/6.json') },
      ]),
];
const seeds = SEEDS.map((seed) => ({ ...seed, text: readFileSync(seed.path, 'utf8') }));

/** A small deterministic generator driven by fast-check's integers, so every failure replays. */
function generator(seed: number) {
  let state = seed >>> 0 || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] };
}

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every container in a JSON value, with the keys of its children. */
function containers(value: Json, out: (Json[] | { [key: string]: Json })[] = []): (Json[] | { [key: string]: Json })[] {
  if (value !== null && typeof value === 'object') {
    out.push(value);
    for (const child of Object.values(value)) containers(child, out);
  }
  return out;
}

const nested = (depth: number): Json => {
  let value: Json = 'leaf';
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
};

const REPLACEMENTS: (() => Json)[] = [
  () => null,
  () => true,
  () => 0,
  () => -1,
  () => 1.7e308,
  () => -1.7e308,
  () => 2 ** 53 + 1,
  () => '',
  () => 'x'.repeat(1_000_000),
  () => '\u0000\u001b[31m\r',
  () => [],
  () => ({}),
  () => ({ __proto__: 'x', constructor: 1, toString: [] }) as unknown as Json,
  () => nested(3000),
];

/** One damaged version of `text` (a JSON document or JSONL lines), chosen by `seed`. */
function damage(text: string, seed: number): string {
  const g = generator(seed);
  const kind = g.pick(['drop', 'retype', 'retype', 'number', 'truncate', 'duplicate', 'prototype'] as const);
  if (kind === 'truncate') return text.slice(0, Math.floor(g.next() * text.length));
  const lines = text.split('\n');
  const documents = text.trimStart().startsWith('{') && !isJsonl(text) ? [text] : lines;
  const index = Math.floor(g.next() * documents.length);
  let value: Json;
  try {
    value = JSON.parse(documents[index]) as Json;
  } catch {
    return text.slice(0, Math.floor(g.next() * text.length));
  }
  const targets = containers(value);
  if (targets.length === 0) return text;
  const target = g.pick(targets);
  const keys = Object.keys(target);
  const key = keys.length > 0 ? g.pick(keys) : '0';
  const record = target as Record<string, Json>;
  switch (kind) {
    case 'drop':
      if (Array.isArray(target)) target.splice(Number(key), 1);
      else delete record[key];
      break;
    case 'retype':
      record[key] = g.pick(REPLACEMENTS)();
      break;
    case 'number':
      record[key] = g.pick([1e308, -1e308, 5e-324, 1e21, -0]);
      break;
    case 'duplicate':
      record[key] = JSON.parse(JSON.stringify(target)) as Json;
      break;
    case 'prototype':
      Object.defineProperty(record, g.pick(['__proto__', 'constructor', 'hasOwnProperty', 'toString']), { value: record[key] ?? 1, enumerable: true, writable: true, configurable: true });
      break;
  }
  // A number past the largest double, as a stranger's file may hold it: JSON.parse reads it as Infinity.
  const written = writeJson(value).replace(/1e\+308/, g.next() < 0.5 ? '1e999' : '1e+308');
  documents[index] = written;
  return documents === lines ? lines.join('\n') : written;
}

function isJsonl(text: string): boolean {
  const first = text.split('\n')[0];
  try {
    JSON.parse(first);
    return text.split('\n').filter((line) => line.trim() !== '').length > 1;
  } catch {
    return false;
  }
}

/** JSON.stringify, for data too deep for it: deep values are written iteratively. */
function writeJson(value: Json): string {
  try {
    return JSON.stringify(value);
  } catch {
    return `${'['.repeat(3000)}"leaf"${']'.repeat(3000)}`;
  }
}

/** The outcome of importing `text`: fine, a clear FormatError, or something else (a bug). */
function importOutcome(text: string, name: string): 'ok' | 'format-error' {
  let result;
  try {
    result = parseInputFile(text, name);
  } catch (error) {
    if (!(error instanceof FormatError)) throw new Error(`${name}: not a FormatError: ${error instanceof Error ? `${error.name}: ${error.message} ${error.stack?.split('\n').slice(1, 9).join(' | ')}` : String(error)}`);
    expect(error.message.length).toBeGreaterThan(0);
    expect(error.message.length).toBeLessThan(20_000);
    return 'format-error';
  }
  // A valid result must be something the page can hand to a worker.
  structuredClone(result);
  return 'ok';
}

describe('importers under fuzzing', () => {
  it.each(seeds.map((seed) => [seed.name, seed] as const))('every seed is valid as it is: %s', (_, seed) => {
    expect(importOutcome(seed.text, seed.name)).toBe('ok');
  });

  it('every damaged file gives a valid result or one clear error', () => {
    const outcomes = { ok: 0, 'format-error': 0 };
    fc.assert(
      fc.property(fc.integer({ min: 0, max: seeds.length - 1 }), fc.integer({ min: 1, max: 2 ** 31 - 1 }), (which, seed) => {
        const { name, text } = seeds[which];
        outcomes[importOutcome(damage(text, seed), name)]++;
      }),
      { seed: 20261130, numRuns: 500 },
    );
    // Both kinds occur: the damage is neither always harmless nor always fatal.
    expect(outcomes.ok).toBeGreaterThan(20);
    expect(outcomes['format-error']).toBeGreaterThan(20);
  }, 120_000);
});

/** What an import comes to, comparable across files: the format and step counts, or the error message. */
function summary(text: string, name: string): string {
  try {
    const input = parseInputFile(text, name);
    return input.kind === 'runs' ? `${input.runs.format} ${input.runs.runs.map((r) => r.steps.length).join(',')}` : input.kind;
  } catch (error) {
    if (!(error instanceof FormatError)) throw new Error(`${name}: not a FormatError: ${String(error)}`);
    return `error ${error.message}`;
  }
}


/** A long field put first in the top-level object and in the first object of the first list (edited as text). */
function padFirst(text: string, length: number): string {
  const field = `"aaa_pad": "${'p'.repeat(length)}", `;
  return text.replace(/^(\s*)\{/, `$1{${field}`).replace(/\[(\s*)\{/, `[$1{${field}`);
}

describe('detection under fuzzing: however much precedes the telling fields', () => {
  const recorded = seeds.filter((s) => s.path.startsWith(RECORDED) && !s.name.endsWith('.jsonl') && !s.name.includes('whowhen') && !s.name.includes('predictions') && !s.name.includes('attrs'));

  it('a padded file, damaged or not, reads as the unpadded one does (same format, steps or message)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: recorded.length - 1 }), fc.integer({ min: 0, max: 20_000 }), fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.boolean(), (which, length, seed, damaged) => {
        const { name, text } = recorded[which];
        // Damage that keeps the document parseable (a dropped or retyped field), then pad.
        let base = text;
        if (damaged) {
          const variant = damage(text, seed);
          base = isJson(variant) ? variant : text;
        }
        const plain = summary(base, name);
        if (!damaged) expect(plain).not.toMatch(/^error/);
        // Padding adds a field but moves no array index: the same runs, or the same message naming the same path.
        const pad = padFirst(base, length);
        fc.pre(isJson(pad)); // the text edit may land inside a string of a damaged file
        expect(summary(pad, name)).toBe(plain);
      }),
      { seed: 20261201, numRuns: 150 },
    );
  }, 120_000);
});

describe('hostile shapes under fuzzing: linear or a clear refusal', () => {
  const TRACE = '0af7651916cd43dd8448eb211c80319c';
  const spanJson = (id: string, extra = '') => `{"traceId":"${TRACE}","spanId":"${id}","name":"s","startTimeUnixNano":"1764583200000000000"${extra}}`;
  const otlpText = (spans: string[]) => `{"resourceSpans":[{"scopeSpans":[{"spans":[${spans.join(',')}]}]}]}`;

  const hostile = fc.oneof(
    // Repeated span ids.
    fc.integer({ min: 1, max: 5000 }).map((n) => otlpText(Array.from({ length: n }, () => spanJson('00f067aa0ba902b7')))),
    // Deeply nested attribute values.
    fc.integer({ min: 1, max: 3000 }).map((d) => otlpText([spanJson('00f067aa0ba902b7', `,"attributes":[{"key":"k","value":${'{"arrayValue":{"values":['.repeat(d)}{"stringValue":"x"}${']}}'.repeat(d)}}]`)])),
    // Times past what a Date holds, or overflowing to Infinity.
    fc.integer({ min: 16, max: 400 }).map((digits) => otlpText([spanJson('00f067aa0ba902b7').replace('"1764583200000000000"', `"${'9'.repeat(digits)}"`)])),
    // Prototype names as attribute keys, carrying GenAI fields.
    fc.constantFrom('__proto__', 'constructor', 'toString').map((key) => otlpText([spanJson('00f067aa0ba902b7', `,"attributes":[{"key":"${key}","value":{"kvlistValue":{"values":[{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},{"key":"gen_ai.request.model","value":{"stringValue":"spoofed"}},{"key":"gen_ai.usage.input_tokens","value":{"intValue":"7"}}]}}}]`)])),
    // Deep parent chains.
    fc.integer({ min: 1, max: 5000 }).map((n) => otlpText(Array.from({ length: n }, (_, i) => spanJson((i + 1).toString(16).padStart(16, '0'), i ? `,"parentSpanId":"${i.toString(16).padStart(16, '0')}"` : '')))),
    // runtape base chains.
    fc.integer({ min: 1, max: 4000 }).map((n) =>
      [`{"id":0,"ts":1,"type":"run_start","parent":null,"payload":{"name":"r"},"meta":{}}`, ...Array.from({ length: n }, (_, i) => `{"id":${i + 1},"ts":2,"type":"llm_request","parent":0,"payload":${i === 0 ? '{"messages":[{"role":"user","content":"go"}]}' : `{"base":${i},"messages_append":[{"role":"user","content":"t"}]}`},"meta":{}}`)].join('\n'),
    ),
  );

  it('each gives a valid result or one FormatError, and a prototype name never spoofs a field', () => {
    fc.assert(
      fc.property(hostile, (text) => {
        const name = text.startsWith('{"id":0') ? 'r.jsonl' : 'h.json';
        expect(importOutcome(text, name)).toMatch(/^(ok|format-error)$/);
        if (text.includes('"spoofed"')) {
          const input = parseInputFile(text, name);
          if (input.kind !== 'runs') throw new Error('not runs');
          for (const step of input.runs.runs[0].steps) expect(step).toMatchObject({ kind: 'other', model: null, usage: null });
        }
      }),
      { seed: 20261202, numRuns: 60 },
    );
  }, 300_000);
});

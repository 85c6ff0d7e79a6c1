/**
 * Importer fuzzing (issue 10): valid files of every format, damaged in the ways strangers' files
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

const ROOT = join(import.meta.dirname, '../..');
const SAMPLES = join(ROOT, '../shared/samples');

/** Valid files, one or two per format. Samples outside the repo are read in place (never copied). */
const SEEDS: { name: string; path: string }[] = [
  { name: 'refund-policy.trace.json', path: join(ROOT, 'src/formats/fixtures/refund-policy.trace.json') },
  { name: 'refund-policy.trace.jsonl', path: join(ROOT, 'src/formats/fixtures/refund-policy.trace.jsonl') },
  { name: 'three-steps.game.json', path: join(ROOT, 'src/formats/fixtures/three-steps.game.json') },
  { name: 'langfuse.json', path: join(SAMPLES, 'langfuse/langfuse-repo_microsoft-agent-2025-12-17.trace.json') },
  { name: 'openinference.attrs.json', path: join(SAMPLES, 'openinference/openinference-genai_fixture_openinference_client_span_tool_calls.attrs.json') },
  { name: 'otel.otlp.json', path: join(SAMPLES, 'otel-genai/agentevals_hand_failed_inference_then_retry.otlp.json') },
  { name: 'langsmith.json', path: join(SAMPLES, 'langsmith/langsmith-sdk_py_wrap_openai_default.post-patch.json') },
  { name: 'runtape.jsonl', path: join(SAMPLES, 'runtape/runtape_bench_gpt-oss-120b_ops-002.jsonl') },
  { name: 'whowhen.json', path: join(SAMPLES, 'whowhen/hand/6.json') },
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
    if (!(error instanceof FormatError)) throw new Error(`${name}: not a FormatError: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
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

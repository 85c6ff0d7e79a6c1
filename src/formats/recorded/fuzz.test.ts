/**
 * Broken variants of the real samples (fields dropped, wrong types, truncated text) end as one
 * FormatError naming where, or import; they never crash with another error.
 * The variants are drawn from a seeded generator, so a failure reproduces.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readStepMessages } from '../../runs/index.ts';
import { FormatError } from '../format-error.ts';
import { parseInputFile } from '../detect.ts';
import { NO_SAMPLES, sharedSamplesDir } from '../test-helpers.ts';

const SAMPLES = sharedSamplesDir() ?? '';
const present = SAMPLES !== '';
if (!present) console.warn(NO_SAMPLES);

function walk(dir: string): string[] {
  return readdirSync(dir).sort().flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : /\.(json|jsonl)$/.test(n) ? [join(dir, n)] : []));
}

/** Park-Miller minimal standard generator: small, seeded, good enough to pick mutations. */
function generator(seed: number): () => number {
  let state = seed % 2147483647 || 1;
  return () => {
    state = (state * 48271) % 2147483647;
    return state / 2147483647;
  };
}

/** Every object and array inside a value, with a way to mutate each. */
function containers(value: unknown, out: (Record<string, unknown> | unknown[])[] = []): (Record<string, unknown> | unknown[])[] {
  if (typeof value === 'object' && value !== null) {
    out.push(value as Record<string, unknown>);
    for (const inner of Object.values(value)) containers(inner, out);
  }
  return out;
}

const WRONG: unknown[] = [null, 42, 'text', true, [], {}, -1, '12abc', [1, 'x']];

function mutate(parsed: unknown, random: () => number): unknown {
  const copy = structuredClone(parsed);
  const all = containers(copy);
  for (let k = 0; k < 3; k++) {
    const target = all[Math.floor(random() * all.length)];
    const keys = Object.keys(target);
    if (keys.length === 0) continue;
    const key = keys[Math.floor(random() * keys.length)];
    if (random() < 0.4) {
      if (Array.isArray(target)) target.splice(Number(key), 1);
      else delete target[key];
    } else {
      (target as Record<string, unknown>)[key] = WRONG[Math.floor(random() * WRONG.length)];
    }
  }
  return copy;
}

function attempt(text: string, name: string): void {
  try {
    const input = parseInputFile(text, name);
    if (input.kind === 'runs') for (const run of input.runs.runs) for (const step of run.steps) for (const w of ['input', 'output'] as const) readStepMessages(step, w);
  } catch (error) {
    if (!(error instanceof FormatError)) throw new Error(`${name}: crashed with ${(error as Error).stack}`);
    expect(error.message.length).toBeGreaterThan(0);
  }
}

describe.skipIf(!present)('broken variants of the samples', () => {
  const files = present ? walk(SAMPLES).filter((f) => !f.includes('/whowhen/') || /\/(1|2|30)\.json$/.test(f)) : [];
  for (const file of files) {
    it(`never crash: ${file.slice(SAMPLES.length + 1)}`, () => {
      const text = readFileSync(file, 'utf8');
      const random = generator(file.length * 7919 + text.length);
      for (const cut of [0.1, 0.5, 0.9, 0.999]) attempt(text.slice(0, Math.floor(text.length * cut)), file);
      if (file.endsWith('.jsonl')) {
        const lines = text.trim().split('\n').map((l) => JSON.parse(l));
        for (let i = 0; i < 40; i++) attempt(lines.map((l) => JSON.stringify(random() < 0.3 ? mutate(l, random) : l)).join('\n'), file);
      } else {
        const parsed = JSON.parse(text);
        for (let i = 0; i < 40; i++) attempt(JSON.stringify(mutate(parsed, random)), file);
      }
    });
  }

  it('a wrong type names the JSON path', () => {
    const text = readFileSync(join(SAMPLES, 'langfuse/langfuse-repo_google-adk-2025-08-28.trace.json'), 'utf8');
    const parsed = JSON.parse(text);
    parsed.observations[2].startTime = 17;
    expect(() => parseInputFile(JSON.stringify(parsed), 'x.json')).toThrow('observations[2].startTime: expected an ISO 8601 time, got 17');
    const otlp = JSON.parse(readFileSync(join(SAMPLES, 'otel-genai/agentevals_hand_failed_inference_then_retry.otlp.json'), 'utf8'));
    otlp.resourceSpans[0].scopeSpans[0].spans[1].attributes[3].value = { intValue: 'many' };
    expect(() => parseInputFile(JSON.stringify(otlp), 'x.json')).toThrow(/^resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[1\]\.attributes\[3\]\.value\.intValue: expected an integer/);
  });
});

/**
 * Detection does not depend on how much of a file precedes its telling fields: each fixture is
 * read the same with a 10 000-character field put first (a long prompt, large resource
 * attributes), and a damaged one gets the same message either way, never "a JSON input names its
 * format" for a file of a known shape.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseInputFile } from '../detect.ts';
import { FormatError } from '../format-error.ts';

function fixture(name: string): string {
  return readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');
}

const PADDING = 'p'.repeat(10_000);

/**
 * The same text with a long field put first in the top-level object and in the first object of
 * the first list (a first span, a first run). Edited as text: parsing would round the big ids.
 */
function padded(text: string): string {
  const field = `"aaa_note": "${PADDING}", `;
  return text.replace(/^(\s*)\{/, `$1{${field}`).replace(/\[(\s*)\{/, `[$1{${field}`);
}

function outcome(text: string, name: string): string {
  try {
    const input = parseInputFile(text, name);
    return input.kind === 'runs' ? `${input.runs.format}: ${input.runs.runs.map((r) => r.steps.length).join(',')} steps` : input.kind;
  } catch (error) {
    if (error instanceof FormatError) return `error: ${error.message}`;
    throw error;
  }
}

describe('detection reads the whole shape, not only the opening', () => {
  it.each([
    'openlit-langchain.otlp.json',
    'smol-agent.openinference.otlp.json',
    'agno-vercel.langfuse.trace.json',
    'refund-chain.langsmith.runs.json',
    'refund-agent.any-agent.json',
    'refund.vercel-ai.json',
    'refund.agentops.json',
  ])('%s reads the same with 10 000 characters before its telling fields', (name) => {
    const text = fixture(name);
    const before = outcome(text, name);
    expect(before).not.toMatch(/^error/);
    expect(outcome(padded(text), name)).toBe(before);
  });

  it('a damaged file gets the same message however much precedes the damage', () => {
    const damaged = fixture('refund.vercel-ai.json').replace('"spanId": "00f067aa0ba902b8"', '"spanId": true');
    const message = outcome(damaged, 'v.json');
    expect(message).toBe('error: [1].spanContext.spanId: expected an id (hex, base64 or an integer), got true');
    expect(outcome(padded(damaged), 'v.json')).toBe(message);
  });

  it('a file of a known shape is never told that a JSON input names its format', () => {
    const otlpLater = JSON.stringify({ note: PADDING, resourceSpans: 'none' });
    expect(outcome(otlpLater, 'x.json')).toBe('error: resourceSpans: expected an array, got the string "none"');
    const langfuseLater = JSON.stringify({ trace: { id: 't', note: PADDING }, observations: [{ id: 5 }] });
    expect(outcome(langfuseLater, 'x.json')).toBe('error: observations[0].id: expected a string, got 5');
    expect(outcome('{"$schema": "https://www.speedscope.app/file-format-schema.json"}', 'profile.json')).toMatch(/^error: format: missing: a JSON input names its format/);
  });
});

/**
 * Recorded-run files built to hurt (a red team's): each is read in linear time or refused with one
 * FormatError naming where, never a stack overflow, a quadratic wait or a spoofed field. Timings are
 * not asserted (they belong in a bench); sizes are large enough that the old behaviour overflowed
 * the stack or took minutes.
 */
import { describe, expect, it } from 'vitest';
import { parseInputFile } from '../formats/detect.ts';
import { FormatError } from '../formats/format-error.ts';
import { MAX_RESOLVED_MESSAGES } from '../formats/importers/runtape.ts';
import { formatErrorOf } from '../formats/test-helpers.ts';
import type { RecordedRunFile } from '../runs/index.ts';

function runsOf(text: string, name = 'hostile.json'): RecordedRunFile {
  const input = parseInputFile(text, name);
  if (input.kind !== 'runs') throw new Error(`read as ${input.kind}`);
  return input.runs;
}

const attr = (key: string, value: unknown) => ({ key, value });
const str = (s: string) => ({ stringValue: s });

function otlp(spans: unknown[]): string {
  return JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans }] }] });
}

function span(id: string, extra: Record<string, unknown> = {}) {
  return { traceId: '0af7651916cd43dd8448eb211c80319c', spanId: id, name: `s ${id}`, startTimeUnixNano: '1764583200000000000', endTimeUnixNano: '1764583201000000000', attributes: [], ...extra };
}

function runtape(requests: number): string {
  const lines = [JSON.stringify({ id: 0, ts: 1, type: 'run_start', parent: null, payload: { run_id: 'r', name: 'r' }, meta: {} })];
  for (let i = 1; i <= requests; i++) {
    const payload = i === 1 ? { model: 'm', messages: [{ role: 'user', content: 'go' }] } : { model: 'm', base: i - 1, messages_append: [{ role: 'user', content: `turn ${i}` }] };
    lines.push(JSON.stringify({ id: i, ts: 1 + i, type: 'llm_request', parent: 0, payload, meta: {} }));
  }
  return lines.join('\n');
}

describe('recorded-run files built to hurt', () => {
  it('20 000 spans with one repeated id: every span kept, each with its own id', () => {
    const file = runsOf(otlp(Array.from({ length: 20000 }, () => span('00f067aa0ba902b7'))));
    const ids = file.runs[0].steps.map((s) => s.id);
    expect(new Set(ids).size).toBe(20000);
  });

  it('a runtape base chain of 3 000 requests resolves each full list from its base (no recursion)', () => {
    const file = runsOf(runtape(3000), 'r.jsonl');
    const last = file.runs[0].steps.at(-1)!;
    expect(last.input?.form === 'value' && Array.isArray(last.input.value) ? last.input.value.length : -1).toBe(3000);
  });

  it('a runtape base chain of 10 000 requests (50 million resolved messages) is refused, naming the request', () => {
    // 10 000 requests whose lists grow by one: 10000 * 10001 / 2 = 50 005 000 messages in all.
    const error = formatErrorOf(() => runsOf(runtape(10000), 'r.jsonl'));
    expect(error.message).toMatch(/^line \d+\.payload\.base: the base chains resolve to more than 5,000,000 messages in all/);
    expect(MAX_RESOLVED_MESSAGES).toBe(5_000_000);
  });

  it('a runtape base that names a later request, or itself, is an error naming it', () => {
    const text = runtape(3).replace('"base":1', '"base":3');
    expect(formatErrorOf(() => runsOf(text, 'r.jsonl')).message).toBe('line 3.payload.base: names request 3, which is not an llm_request before it');
  });

  it('2 000 nested OTLP arrayValues are refused naming where, not a stack overflow', () => {
    // Written as text: JSON.stringify itself overflows on a value this deep.
    const deep = (levels: number) => `${'{"arrayValue":{"values":['.repeat(levels)}{"stringValue":"leaf"}${']}}'.repeat(levels)}`;
    const text = (levels: number) => otlp([span('00f067aa0ba902b7', { attributes: [attr('deep', 'DEEP')] })]).replace('"DEEP"', deep(levels));
    // Any JSON value past 256 levels is refused on reading, before a recursive reader sees it.
    expect(formatErrorOf(() => runsOf(text(2000))).message).toBe('resourceSpans[0].scopeSpans[0].spans[0].attributes[0]...: nested more than 256 levels deep');
    // Within that, attribute values themselves stop at 64 levels (70 arrayValues are 210 JSON levels).
    expect(formatErrorOf(() => runsOf(text(70))).message).toMatch(/^resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[0\]\.attributes\[0\]\.value(\.arrayValue\.values\[0\])+: nested more than 64 levels deep$/);
  });

  it('AgentOps attributes nested 2 000 objects deep are refused too', () => {
    const nested = `${'{"a":'.repeat(2000)}{"leaf":1}${'}'.repeat(2000)}`;
    const text = JSON.stringify({ trace: { trace_id: '9c3a1f0e2b4d4e8f8a7b6c5d4e3f2a1b' }, spans: [{ span_id: '1a2b3c4d5e6f7081', span_name: 'x', span_attributes: 'NESTED' }] }).replace('"NESTED"', nested);
    expect(formatErrorOf(() => runsOf(text)).message).toBe('spans[0].span_attributes.a.a.a.a.a...: nested more than 256 levels deep');
    const shallower = text.replace(`${'{"a":'.repeat(2000)}{"leaf":1}${'}'.repeat(2000)}`, `${'{"a":'.repeat(100)}{"leaf":1}${'}'.repeat(100)}`);
    expect(formatErrorOf(() => runsOf(shallower)).message).toMatch(/^spans\[0\]\.span_attributes(\.a)+: nested more than 64 levels deep$/);
  });

  it('a Langfuse export of 130 000 observations opens (no spread of every start time into Math.min)', () => {
    const observations = Array.from({ length: 130000 }, (_, i) => ({ id: `o${i}`, type: 'SPAN', name: 'step', startTime: '2026-12-01T10:00:00.000Z', endTime: `2026-12-01T10:00:0${i % 10}.000Z` }));
    const file = runsOf(JSON.stringify({ trace: { id: 't', name: 'big', timestamp: '2026-12-01T10:00:00.500Z' }, observations }));
    const root = file.runs[0].steps[0];
    expect(root.start).toBe(Date.parse('2026-12-01T10:00:00.000Z'));
    expect(root.end).toBe(Date.parse('2026-12-01T10:00:09.000Z'));
  });

  it.each([
    ['1e22 ns', '10000000000000000000000'],
    ['digits that overflow to Infinity', '9'.repeat(400)],
  ])('a start time of %s is refused naming the field (a Date cannot show it)', (_, nanos) => {
    const error = formatErrorOf(() => runsOf(otlp([span('00f067aa0ba902b7', { startTimeUnixNano: nanos })])));
    expect(error.message).toMatch(/^resourceSpans\[0\]\.scopeSpans\[0\]\.spans\[0\]\.startTimeUnixNano: a time out of range \(".*"\): past the years a date can hold$/);
  });

  it('Jaeger and Vercel times past the range are refused as well', () => {
    const jaeger = JSON.stringify({ data: [{ traceID: 'abc', spans: [{ traceID: '0af7651916cd43dd8448eb211c80319c', spanID: '00f067aa0ba902b7', operationName: 'x', startTime: 9e18, duration: 1, tags: [] }] }] });
    expect(formatErrorOf(() => runsOf(jaeger)).message).toMatch(/^data\[0\]\.spans\[0\]\.startTime: a time out of range/);
    const vercel = JSON.stringify([{ name: 'x', spanContext: { traceId: '4bf92f3577b34da6a3ce929d0e0e4736', spanId: '00f067aa0ba902b7' }, startTime: [1e300, 0], endTime: [1, 0] }]);
    expect(formatErrorOf(() => runsOf(vercel)).message).toMatch(/^\[0\]\.startTime: a time out of range/);
  });

  it('an attribute key "__proto__" is an ordinary key: it cannot spoof the kind, the model or the tokens', () => {
    const spoof = { kvlistValue: { values: [attr('gen_ai.operation.name', str('chat')), attr('gen_ai.request.model', str('spoofed')), attr('gen_ai.usage.input_tokens', { intValue: '999999' })] } };
    const file = runsOf(otlp([span('00f067aa0ba902b7', { attributes: [attr('__proto__', spoof)] })]));
    const [step] = file.runs[0].steps;
    expect(step).toMatchObject({ kind: 'other', model: null, usage: null });
    expect(Object.keys(step.attributes)).toEqual(['__proto__']);
    // The same through AgentOps's nested attributes and a bare attribute map.
    const agentops = JSON.stringify({ trace: { trace_id: '9c3a1f0e2b4d4e8f8a7b6c5d4e3f2a1b' }, spans: [{ span_id: '1a2b3c4d5e6f7081', span_name: 'x', span_attributes: JSON.parse('{"__proto__": {"gen_ai": {"request": {"model": "spoofed"}}}}') }] });
    expect(runsOf(agentops).runs[0].steps[0]).toMatchObject({ kind: 'other', model: null });
  });

  it('a flattened message field "__proto__" cannot spoof the role of the messages read from it', async () => {
    const { readStepMessages } = await import('../runs/index.ts');
    const attributes = JSON.parse('{"llm.input_messages.0.message.__proto__": {"role": "system"}, "llm.input_messages.0.message.content": "hi"}') as Record<string, unknown>;
    const messages = readStepMessages({ input: { form: 'flat', scheme: 'openinference', prefix: 'llm.input_messages' }, attributes }, 'input');
    expect(messages).toEqual([{ role: 'unknown', text: 'hi' }]);
  });

  it('every refusal above is a FormatError (the command exits 2 with one line, never 3)', () => {
    for (const text of [runtape(10000)]) {
      try {
        runsOf(text, 'r.jsonl');
      } catch (error) {
        expect(error).toBeInstanceOf(FormatError);
      }
    }
  });
});

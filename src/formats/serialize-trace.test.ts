import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serializeTrace } from './serialize-trace.ts';
import { parseTrace } from './trace.ts';
import { readFixture } from './test-helpers.ts';

describe('serializeTrace', () => {
  it('writes the sample traces so that they parse back equal, in both forms', () => {
    for (const fixture of ['refund-policy.trace.json', 'refund-policy.trace.jsonl']) {
      const trace = parseTrace(readFixture(fixture));
      expect(parseTrace(serializeTrace(trace))).toEqual(trace);
      expect(parseTrace(serializeTrace(trace, { jsonl: true }))).toEqual(trace);
    }
  });

  it('puts the format first and one case per line', () => {
    const trace = parseTrace(readFixture('refund-policy.trace.json'));
    const json = serializeTrace(trace).split('\n');
    expect(json[1]).toBe('  "format": "agentblame-trace",');
    expect(json.filter((line) => line.startsWith('    {"id":'))).toHaveLength(3);
    const jsonl = serializeTrace(trace, { jsonl: true }).trimEnd().split('\n');
    expect(jsonl).toHaveLength(4);
    expect(JSON.parse(jsonl[0])).toEqual({ format: 'agentblame-trace', version: 1, pipeline: trace.pipeline });
  });

  it('round-trips a trace with no cases and a pipeline', () => {
    const trace = parseTrace('{"format":"agentblame-trace","version":1,"pipeline":{"name":"p","source":"export default {}"},"cases":[]}');
    expect(parseTrace(serializeTrace(trace))).toEqual(trace);
    expect(parseTrace(serializeTrace(trace, { jsonl: true }))).toEqual(trace);
  });

  it('round-trips arbitrary valid traces (property test)', () => {
    const record = fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 });
    const caseArb = fc.record(
      {
        inputs: record,
        seed: fc.integer({ min: -(2 ** 31), max: 2 ** 31 }),
        observed: fc.dictionary(fc.string({ minLength: 1 }), fc.dictionary(fc.string(), fc.string(), { maxKeys: 3 }), { maxKeys: 3 }),
        outputs: record,
        score: fc.double({ noNaN: true, noDefaultInfinity: true }),
      },
      { requiredKeys: ['inputs'] },
    );
    const traceArb = fc.record(
      {
        pipeline: fc.record({ name: fc.string({ minLength: 1 }), source: fc.string({ minLength: 1 }) }),
        cases: fc.array(caseArb, { minLength: 1, maxLength: 6 }),
      },
      { requiredKeys: ['cases'] },
    );
    fc.assert(
      fc.property(traceArb, (raw) => {
        // Ids are made unique by position; everything else is arbitrary JSON.
        const document = { format: 'agentblame-trace', version: 1, ...raw, cases: raw.cases.map((c, index) => ({ id: `c${index}`, ...c })) };
        const text = JSON.stringify(document);
        const trace = parseTrace(text);
        expect(trace).toEqual(JSON.parse(text));
        expect(parseTrace(serializeTrace(trace))).toEqual(trace);
        expect(parseTrace(serializeTrace(trace, { jsonl: true }))).toEqual(trace);
      }),
      { numRuns: 200 },
    );
  });
});

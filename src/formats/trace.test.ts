import { describe, expect, it } from 'vitest';
import { parseTrace, type TraceFile } from './trace.ts';
import { formatErrorOf, readFixture } from './test-helpers.ts';

/** A JSON trace text with the given cases (and header fields overridden by `extra`). */
function traceText(cases: unknown[], extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ format: 'agentblame-trace', version: 1, ...extra, cases });
}

function messageOf(text: string): string {
  return formatErrorOf(() => parseTrace(text)).message;
}

const goodCase = { id: 'q1', inputs: { question: 'why?' } };

describe('parseTrace, JSON form', () => {
  it('reads every field of the sample trace', () => {
    const trace = parseTrace(readFixture('refund-policy.trace.json'));
    expect(trace.format).toBe('agentblame-trace');
    expect(trace.version).toBe(1);
    expect(trace.pipeline?.name).toBe('refund-policy');
    expect(trace.pipeline?.source).toContain('export default');
    expect(trace.cases.map((c) => c.id)).toEqual(['q1', 'q2', 'q3']);
    expect(trace.cases[0]).toEqual({
      id: 'q1',
      inputs: { question: 'Can I get a refund after 30 days?' },
      seed: 1,
      observed: { retriever: { retriever: 'stale' } },
      outputs: { planner: 'plan for: Can I get a refund after 30 days?', retriever: 'stale', writer: 'wrong' },
      score: 0,
    });
    // Absent optional fields stay absent (not present as undefined).
    expect(Object.keys(trace.cases[1]).sort()).toEqual(['id', 'inputs', 'seed']);
    expect(trace.cases[2].inputs).toEqual({ question: 'Do gift cards get refunds?', locale: 'en-GB' });
  });

  it('accepts a byte order mark, a trace without a pipeline, and negative or zero seeds', () => {
    const trace = parseTrace('\uFEFF' + traceText([{ ...goodCase, seed: -3 }, { id: 'q2', inputs: {}, seed: 0 }]));
    expect(trace.pipeline).toBeUndefined();
    expect(trace.cases.map((c) => c.seed)).toEqual([-3, 0]);
  });

  it('accepts an empty case list when the trace bundles a pipeline', () => {
    const trace = parseTrace(traceText([], { pipeline: { name: 'p', source: 'export default {}' } }));
    expect(trace.cases).toEqual([]);
  });

  it('keeps a "__proto__" key in observed as plain data', () => {
    const text = '{"format":"agentblame-trace","version":1,"cases":[{"id":"a","inputs":{},"observed":{"__proto__":{"k":"x"}}}]}';
    const observed = parseTrace(text).cases[0].observed;
    expect(Object.getPrototypeOf(observed)).toBe(Object.prototype);
    expect(Object.keys(observed ?? {})).toEqual(['__proto__']);
    expect(Object.getOwnPropertyDescriptor(observed, '__proto__')?.value).toEqual({ k: 'x' });
  });
});

describe('parseTrace, bad JSON files', () => {
  it('rejects an empty file', () => {
    expect(messageOf('  \n ')).toBe('the file is empty');
  });

  it('names line and column of a syntax error', () => {
    const text = '{\n  "format": "agentblame-trace",\n  "version": 1\n  "cases": []\n}\n';
    const error = formatErrorOf(() => parseTrace(text));
    expect(error.message).toBe(`invalid JSON at line 4, column 3: expected ',' or '}' after a property value, found "\\""`);
    expect([error.line, error.column]).toEqual([4, 3]);
    expect(error.path).toBe('');
  });

  it('names a trailing comma', () => {
    const text = '{"format": "agentblame-trace", "version": 1, "cases": [\n  {"id": "q1", "inputs": {}},\n]}';
    expect(messageOf(text)).toBe("invalid JSON at line 3, column 1: trailing comma before ']'");
  });

  it('rejects a top level that is not an object', () => {
    expect(messageOf('[1, 2]')).toBe('expected a JSON object at the top level, got an array');
  });

  it('rejects another format, a missing format and an unsupported version', () => {
    expect(messageOf(JSON.stringify({ format: 'agentblame-game', version: 1, games: [] }))).toBe(
      'format: expected "agentblame-trace", got the string "agentblame-game"',
    );
    expect(messageOf(JSON.stringify({ version: 1, cases: [] }))).toBe('format: missing (expected "agentblame-trace")');
    expect(messageOf(traceText([goodCase], { version: 2 }))).toBe(
      'version: unsupported version 2 (this reads agentblame-trace version 1)',
    );
    expect(messageOf(traceText([goodCase], { version: '1' }))).toBe('version: expected a number, got the string "1"');
  });

  it('rejects unknown top-level fields', () => {
    expect(messageOf(traceText([goodCase], { comment: 'x' }))).toBe(
      'comment: unknown field (expected one of: format, version, pipeline, cases)',
    );
  });

  it('rejects a missing or non-array case list, and an empty one without a pipeline', () => {
    expect(messageOf(JSON.stringify({ format: 'agentblame-trace', version: 1 }))).toBe(
      'cases: missing (a JSON trace lists its cases in "cases"; a JSONL trace puts one case per line after the header line)',
    );
    expect(messageOf(traceText([]).replace('"cases":[]', '"cases":{}'))).toBe('cases: expected an array, got an object');
    expect(messageOf(traceText([]))).toBe(
      'cases: the trace has no cases (a trace without a pipeline needs at least one case)',
    );
  });

  it('checks the bundled pipeline', () => {
    expect(messageOf(traceText([goodCase], { pipeline: 'export default {}' }))).toBe(
      'pipeline: expected an object, got the string "export default {}"',
    );
    expect(messageOf(traceText([goodCase], { pipeline: { name: 'p' } }))).toBe('pipeline.source: missing (expected a string)');
    expect(messageOf(traceText([goodCase], { pipeline: { name: '', source: 's' } }))).toBe(
      'pipeline.name: expected a non-empty string',
    );
    expect(messageOf(traceText([goodCase], { pipeline: { name: 'p', source: 's', version: 3 } }))).toBe(
      'pipeline.version: unknown field (expected one of: name, source)',
    );
  });

  it.each([
    ['a case that is not an object', [goodCase, 'q2'], 'cases[1]: expected an object, got the string "q2"'],
    ['a missing id', [{ inputs: {} }], 'cases[0].id: missing (expected a string)'],
    ['an empty id', [{ id: '', inputs: {} }], 'cases[0].id: expected a non-empty string'],
    ['a numeric id', [{ id: 7, inputs: {} }], 'cases[0].id: expected a string, got 7'],
    ['missing inputs', [{ id: 'q1' }], 'cases[0].inputs: missing (expected an object)'],
    ['inputs that are an array', [goodCase, { id: 'q2', inputs: {} }, { id: 'q3', inputs: {} }, { id: 'q4', inputs: [] }], 'cases[3].inputs: expected an object, got an array'],
    ['null inputs', [{ id: 'q1', inputs: null }], 'cases[0].inputs: expected an object, got null'],
    ['a fractional seed', [{ ...goodCase, seed: 1.5 }], 'cases[0].seed: expected an integer, got 1.5'],
    ['an unsafe seed', [{ ...goodCase, seed: 2 ** 60 }], `cases[0].seed: expected an integer, got ${2 ** 60}`],
    ['a string seed', [{ ...goodCase, seed: '1' }], 'cases[0].seed: expected a number, got the string "1"'],
    ['a null seed', [{ ...goodCase, seed: null }], 'cases[0].seed: expected a number, got null'],
    ['observed that is not an object', [{ ...goodCase, observed: ['stale'] }], 'cases[0].observed: expected an object, got an array'],
    ['an observed step that is not an object', [{ ...goodCase, observed: { retriever: 'stale' } }], 'cases[0].observed.retriever: expected an object, got the string "stale"'],
    ['an observed choice that is not a string', [{ ...goodCase, observed: { retriever: { 'draw 1': 2 } } }], 'cases[0].observed.retriever["draw 1"]: expected a string, got 2'],
    ['an empty observed step name', [{ ...goodCase, observed: { '': {} } }], 'cases[0].observed[""]: expected a step name, got an empty key'],
    ['outputs that are not an object', [{ ...goodCase, outputs: 'ok' }], 'cases[0].outputs: expected an object, got the string "ok"'],
    ['a string score', [{ ...goodCase, score: '0' }], 'cases[0].score: expected a number, got the string "0"'],
    ['a boolean score', [{ ...goodCase, score: true }], 'cases[0].score: expected a number, got true'],
    ['a misspelt field', [{ ...goodCase, observd: {} }], 'cases[0].observd: unknown field (expected one of: id, inputs, seed, observed, outputs, score)'],
  ])('rejects %s', (_name, cases, message) => {
    expect(messageOf(traceText(cases))).toBe(message);
  });

  it('rejects a score that overflows to Infinity', () => {
    const text = '{"format":"agentblame-trace","version":1,"cases":[{"id":"q1","inputs":{},"score":1e999}]}';
    expect(messageOf(text)).toBe('cases[0].score: expected a finite number, got Infinity');
  });

  it('rejects a duplicated case id, naming both places', () => {
    const cases = [goodCase, { id: 'q2', inputs: {} }, { id: 'q1', inputs: {} }];
    const error = formatErrorOf(() => parseTrace(traceText(cases)));
    expect(error.message).toBe('cases[2].id: duplicate case id "q1" (also cases[0])');
    expect(error.path).toBe('cases[2].id');
    expect(error.detail).toBe('duplicate case id "q1" (also cases[0])');
  });
});

describe('parseTrace, JSONL form', () => {
  const header = '{"format":"agentblame-trace","version":1}';

  it('reads the header and one case per line, skipping blank lines', () => {
    const trace = parseTrace(readFixture('refund-policy.trace.jsonl'));
    expect(trace.pipeline).toBeUndefined();
    expect(trace.cases.map((c) => c.id)).toEqual(['q1', 'q2', 'q3']);
    expect(trace.cases[0].observed).toEqual({ retriever: { retriever: 'stale' } });
    expect(trace.cases[2]).toEqual({ id: 'q3', inputs: { question: 'Do gift cards get refunds?' }, outputs: { writer: 'ok' }, score: 1 });
  });

  it('reads CRLF line ends and a pipeline in the header', () => {
    const text = [
      '{"format":"agentblame-trace","version":1,"pipeline":{"name":"p","source":"export default {}"}}',
      '{"id":"a","inputs":{}}',
      '{"id":"b","inputs":{"x":1}}',
    ].join('\r\n');
    const trace = parseTrace(text);
    expect(trace.pipeline).toEqual({ name: 'p', source: 'export default {}' });
    expect(trace.cases).toEqual([{ id: 'a', inputs: {} }, { id: 'b', inputs: { x: 1 } }]);
  });

  it('names the line and case index of a bad case', () => {
    const text = [header, '{"id":"a","inputs":{}}', '', '{"id":"b","inputs":{}}', '{"id":"c","inputs":[]}'].join('\n');
    const error = formatErrorOf(() => parseTrace(text));
    expect(error.message).toBe('line 5 (cases[2]).inputs: expected an object, got an array');
    expect(error.path).toBe('line 5 (cases[2]).inputs');
  });

  it('names line and column of a syntax error in a case line', () => {
    const text = [header, '{"id":"a","inputs":{}}', '{"id":"b" "inputs":{}}'].join('\n');
    const error = formatErrorOf(() => parseTrace(text));
    expect(error.message).toBe(`line 3 (cases[1]): invalid JSON at column 11: expected ',' or '}' after a property value, found "\\""`);
    expect([error.line, error.column]).toEqual([3, 11]);
  });

  it('names both lines of a duplicated case id', () => {
    const text = [header, '{"id":"a","inputs":{}}', '{"id":"b","inputs":{}}', '{"id":"a","inputs":{}}'].join('\n');
    expect(messageOf(text)).toBe('line 4 (cases[2]).id: duplicate case id "a" (also line 2 (cases[0]))');
  });

  it('checks the header', () => {
    expect(messageOf('{"format":"agentblame-trace","version":3}\n{"id":"a","inputs":{}}')).toBe(
      'line 1 (header).version: unsupported version 3 (this reads agentblame-trace version 1)',
    );
    expect(messageOf('{"format":"trace","version":1}\n{"id":"a","inputs":{}}')).toBe(
      'line 1 (header).format: expected "agentblame-trace", got the string "trace"',
    );
    // A first line with "cases" is a one-line JSON trace with stray text after it.
    expect(messageOf('{"format":"agentblame-trace","version":1,"cases":[]}\n{"id":"a","inputs":{}}')).toBe(
      'invalid JSON at line 2, column 1: unexpected "{" after the end of the JSON value',
    );
    expect(messageOf('{"format":"agentblame-trace","version":1,"name":"x"}\n{"id":"a","inputs":{}}')).toBe(
      'line 1 (header).name: unknown field (expected one of: format, version, pipeline)',
    );
  });

  it('rejects a header with no cases after it, unless it bundles a pipeline', () => {
    expect(messageOf(`${header}\n\n`)).toBe(
      'cases: missing (a JSON trace lists its cases in "cases"; a JSONL trace puts one case per line after the header line)',
    );
    const withPipeline = '{"format":"agentblame-trace","version":1,"pipeline":{"name":"p","source":"export default {}"}}\n';
    expect(parseTrace(withPipeline).cases).toEqual([]);
  });

  it('names line and column when the first line is not JSON', () => {
    const error = formatErrorOf(() => parseTrace('format: agentblame-trace\n{"id":"a"}'));
    expect(error.message).toBe('invalid JSON at line 1, column 1: expected a value, found "f"');
  });
});

describe('parseTrace, large input', () => {
  it('parses a generated 10 000-case trace in both forms', () => {
    const cases = Array.from({ length: 10_000 }, (_, index) => ({
      id: `case-${index}`,
      inputs: { question: `question ${index}`, attempt: index % 7 },
      seed: index,
      observed: { retriever: { retriever: index % 3 === 0 ? 'gold' : 'stale' } },
      outputs: { writer: index % 3 === 0 ? 'ok' : 'wrong' },
      score: index % 3 === 0 ? 1 : 0,
    }));
    const json = parseTrace(traceText(cases));
    expect(json.cases).toHaveLength(10_000);
    expect(json.cases[9_999]).toEqual(cases[9_999]);
    const jsonl = [JSON.stringify({ format: 'agentblame-trace', version: 1 }), ...cases.map((c) => JSON.stringify(c))].join('\n');
    const fromLines: TraceFile = parseTrace(jsonl);
    expect(fromLines.cases).toEqual(json.cases);
  });
});

describe('parseTrace, hostile sizes', () => {
  const nested = (depth: number): unknown => {
    let value: unknown = 'leaf';
    for (let i = 0; i < depth; i++) value = { a: value };
    return value;
  };

  it('refuses inputs nested 5 000 deep, naming where', () => {
    // Written out as text: JSON.stringify itself overflows the stack on such data.
    const deep = `${'{"a":'.repeat(5000)}"leaf"${'}'.repeat(5000)}`;
    const message = messageOf(`{"format":"agentblame-trace","version":1,"cases":[{"id":"q1","inputs":{"question":${deep}}}]}`);
    expect(message).toMatch(/^cases\[0\]\.inputs\.question(\.a)+: nested more than 200 levels deep \(at most 200\)$/);
  });

  it('refuses recorded outputs nested past the limit', () => {
    const message = messageOf(traceText([{ id: 'q1', inputs: {}, outputs: { writer: nested(300) } }]));
    expect(message).toMatch(/^cases\[0\]\.outputs\.writer(\.a)+: nested more than 200 levels deep/);
  });

  it('accepts data nested up to the limit', () => {
    expect(parseTrace(traceText([{ id: 'q1', inputs: { question: nested(198) } }])).cases).toHaveLength(1);
  });

  it('refuses a case id longer than 200 characters', () => {
    expect(messageOf(traceText([{ id: 'x'.repeat(20_000), inputs: {} }]))).toBe('cases[0].id: too long: 20000 characters (at most 200)');
  });
});

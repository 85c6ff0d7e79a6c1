import { describe, expect, it } from 'vitest';
import { describeReadableFormats, IMPORTERS, parseInputFile, type Importer } from './detect.ts';
import { formatErrorOf, readFixture } from './test-helpers.ts';

const READS =
  'this reads: agentblame-trace (JSON or JSONL); agentblame-game (JSON); pipeline definition (.js or .mjs with export default)' +
  '; runtape recordings (JSONL); Who&When failure logs; Langfuse trace export (trace + observations); AgentOps trace export' +
  '; LangSmith runs (post/patch payloads or run lists); any-agent traces; Vercel AI SDK spans; OpenInference spans (OTLP/JSON)' +
  '; OpenTelemetry GenAI spans (OTLP/JSON, Tempo, Jaeger, console exporter); span attribute maps (OTel GenAI or OpenInference)' +
  '; attribution predictions ({ "<run id>": { agent, step } })';

describe('parseInputFile', () => {
  it('reads a JSON trace, a JSONL trace and a game file by their format field', () => {
    const json = parseInputFile(readFixture('refund-policy.trace.json'), 'refund-policy.trace.json');
    expect(json.kind === 'trace' && json.trace.cases.length).toBe(3);
    const jsonl = parseInputFile(readFixture('refund-policy.trace.jsonl'), 'refund-policy.trace.jsonl');
    expect(jsonl.kind === 'trace' && jsonl.trace.cases.map((c) => c.id)).toEqual(['q1', 'q2', 'q3']);
    const game = parseInputFile(readFixture('three-steps.game.json'));
    expect(game.kind === 'game' && game.game.games.length).toBe(2);
  });

  it('reads a pipeline definition by file name or by its export default', () => {
    const source = readFixture('refund-policy.pipeline.js');
    expect(parseInputFile(source, 'refund-policy.pipeline.js')).toEqual({ kind: 'pipeline', source });
    expect(parseInputFile(source)).toEqual({ kind: 'pipeline', source });
    expect(parseInputFile('export default { name: "p" }', 'P.MJS')).toEqual({ kind: 'pipeline', source: 'export default { name: "p" }' });
  });

  it('finds the format when it is not the first field, also in a JSONL header', () => {
    const trace = JSON.stringify({
      version: 1,
      pipeline: { name: 'p', source: 'export default {}' },
      cases: [{ id: 'a', inputs: { format: 'agentblame-game' } }],
      format: 'agentblame-trace',
    });
    const detected = parseInputFile(trace, 'trace.json');
    expect(detected.kind === 'trace' && detected.trace.cases[0].inputs).toEqual({ format: 'agentblame-game' });
    const jsonl = '{"version":1,"format":"agentblame-trace"}\n{"id":"a","inputs":{}}\n';
    expect(parseInputFile(jsonl).kind).toBe('trace');
    const game = JSON.stringify({ games: [{ id: 'g', players: ['a'], values: [{ fixed: [], value: 0 }, { fixed: ['a'], value: 1 }] }], version: 1, format: 'agentblame-game' });
    expect(parseInputFile(game).kind).toBe('game');
  });

  it('passes a format error of the detected format through', () => {
    const text = readFixture('refund-policy.trace.json').replace('"id": "q2"', '"id": "q1"');
    expect(formatErrorOf(() => parseInputFile(text, 'refund-policy.trace.json')).message).toBe(
      'cases[1].id: duplicate case id "q1" (also cases[0])',
    );
  });

  it('says a binary file is binary, where it shows, and names a compressed export', () => {
    // As the page and the command read it: bytes that are not UTF-8 become U+FFFD.
    const read = (bytes: number[]) => new TextDecoder().decode(new Uint8Array(bytes));
    expect(formatErrorOf(() => parseInputFile(read([0x7b, 0x22, 0xff, 0xfe, 0x01]), 'random.json')).message).toBe('"random.json" is not text but binary data (character 3 is not UTF-8); this reads text files (JSON, JSONL, .js)');
    expect(formatErrorOf(() => parseInputFile(read([0x1f, 0x8b, 0x08, 0x00, 0x00]), 'trace.json.gz')).message).toBe('"trace.json.gz" is not text but binary data (character 2 is not UTF-8): it looks gzip-compressed, decompress it first (gunzip); this reads text files (JSON, JSONL, .js)');
    expect(formatErrorOf(() => parseInputFile('PK\u0003\u0004\u0014\u0000\u0000', 'traces.zip')).message).toBe('"traces.zip" is not text but binary data (character 6 is a NUL byte): it looks like a zip archive, unpack it first; this reads text files (JSON, JSONL, .js)');
    // Text with an escaped NUL or replacement character is text.
    expect(formatErrorOf(() => parseInputFile('{"note": "\\u0000 \\uFFFD"}', 'x.json')).message).not.toContain('binary');
  });

  it('rejects an unknown or missing format, listing what it reads', () => {
    expect(formatErrorOf(() => parseInputFile('{"$schema": "https://www.speedscope.app/file-format-schema.json"}', 'profile.json')).message).toBe(
      `format: missing: a JSON input names its format (${READS})`,
    );
    expect(formatErrorOf(() => parseInputFile('{ "format": "agentblame-session", "version": 1 }')).message).toBe(
      `format: unknown format "agentblame-session" (${READS})`,
    );
    expect(formatErrorOf(() => parseInputFile('{"version": 1, "format": 3}')).message).toBe(
      `format: expected a string naming the format, got 3 (${READS})`,
    );
  });

  it('rejects files that are none of the formats', () => {
    expect(formatErrorOf(() => parseInputFile('step,score\nplanner,1\n', 'results.csv')).message).toBe(
      `"results.csv" is not a format this workbench reads (${READS})`,
    );
    // A bare list is said in a few words: what it is, and that nothing here reads it (no list of every format).
    const list = 'not a trace or any other file this workbench reads (those are JSON objects, or JSONL lines of them)';
    expect(formatErrorOf(() => parseInputFile('[1, 2, 3]', 'nums.json')).message).toBe(`"nums.json" is a JSON array of 3 numbers, ${list}`);
    expect(formatErrorOf(() => parseInputFile('[]')).message).toBe(`the file is an empty JSON array, ${list}`);
    expect(formatErrorOf(() => parseInputFile('["a", 1, null]')).message).toBe(`the file is a JSON array of 3 values (strings, numbers, nulls), ${list}`);
    expect(formatErrorOf(() => parseInputFile('[{"x": 1}]')).message).toBe(`the file is a JSON array of 1 object, ${list}`);
    expect(formatErrorOf(() => parseInputFile('\n  \n', 'empty.json')).message).toBe(`"empty.json" is empty (${READS})`);
  });

  it('rejects a JSON object that is not valid JSON with line and column', () => {
    const error = formatErrorOf(() => parseInputFile('{\n  "format": "agentblame-trace"\n  "version": 1\n}', 'trace.json'));
    expect(error.message).toBe(`invalid JSON at line 3, column 3: expected ',' or '}' after a property value, found "\\""`);
  });

  it('rejects a script without export default', () => {
    expect(formatErrorOf(() => parseInputFile('module.exports = {}', 'pipeline.js')).message).toBe(
      'no "export default" found: a pipeline definition exports its pipeline with export default { name, steps, metric }',
    );
    expect(formatErrorOf(() => parseInputFile('   ', 'pipeline.js')).message).toBe('the pipeline definition is empty');
  });

  it('does not take a JSON trace for a pipeline because its bundled source says export default', () => {
    const trace = JSON.stringify({ version: 1, format: 'agentblame-trace', pipeline: { name: 'p', source: 'export default {}' }, cases: [] });
    expect(parseInputFile(trace).kind).toBe('trace');
  });

  it('accepts more importers through the list, and names them when nothing matches', () => {
    const notes: Importer = {
      label: 'notes (.txt)',
      sniff: (_text, fileName) => fileName?.endsWith('.txt') === true,
      import: (text) => ({ kind: 'pipeline', source: `export default ${JSON.stringify(text)}` }),
    };
    const importers = [...IMPORTERS, notes];
    expect(parseInputFile('hello', 'a.txt', importers)).toEqual({ kind: 'pipeline', source: 'export default "hello"' });
    expect(describeReadableFormats(importers)).toBe(`${READS}; notes (.txt)`);
    expect(formatErrorOf(() => parseInputFile('hello', 'a.md', importers)).message).toBe(
      `"a.md" is not a format this workbench reads (${READS}; notes (.txt))`,
    );
  });
});

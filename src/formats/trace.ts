/**
 * The trace file (docs/formats.md, "Trace files"): recorded runs of a pipeline, as one JSON document or as JSONL with a
 * header line followed by one case per line. `parseTrace` validates every field and names the place
 * of the first problem (`cases[3].inputs: expected an object, got an array`; for JSONL
 * `line 5 (cases[3]).inputs: ...`).
 */
import type { CaseDef } from '../engine/types.ts';
import { pathPastDepth } from '../engine/data-depth.ts';
import { MAX_DATA_DEPTH, MAX_NAME_LENGTH } from '../engine/limits.ts';
import { expectFormatHeader } from './format-header.ts';
import { FormatError } from './format-error.ts';
import { childPath, indexPath } from './json-path.ts';
import { parseJson, stripByteOrderMark } from './parse-json.ts';
import {
  describeValue,
  expectArray,
  expectFiniteNumber,
  expectInteger,
  expectNonEmptyString,
  expectObject,
  expectString,
  isJsonObject,
  ownField,
  rejectUnknownFields,
} from './validate.ts';

export const TRACE_FORMAT = 'agentblame-trace';
export const TRACE_VERSION = 1;

/** The pipeline definition bundled with a trace: its name and JavaScript source. */
export interface TracePipeline {
  name: string;
  source: string;
}

export interface TraceFile {
  format: 'agentblame-trace';
  version: 1;
  pipeline?: TracePipeline;
  cases: CaseDef[];
}

const DOCUMENT_FIELDS = ['format', 'version', 'pipeline', 'cases'] as const;
const HEADER_FIELDS = ['format', 'version', 'pipeline'] as const;
const PIPELINE_FIELDS = ['name', 'source'] as const;
const CASE_FIELDS = ['id', 'inputs', 'seed', 'observed', 'outputs', 'score'] as const;

function parsePipeline(value: unknown, path: string): TracePipeline {
  const object = expectObject(value, path);
  rejectUnknownFields(object, PIPELINE_FIELDS, path);
  return {
    name: expectNonEmptyString(ownField(object, 'name'), childPath(path, 'name')),
    source: expectNonEmptyString(ownField(object, 'source'), childPath(path, 'source')),
  };
}

/**
 * `observed`: step name -> draw key -> the option that was chosen. Rebuilt with Object.fromEntries,
 * which defines own data properties, so a step or key named "__proto__" stays plain data.
 */
function parseObserved(value: unknown, path: string): Record<string, Record<string, string>> {
  const observed = expectObject(value, path);
  return Object.fromEntries(
    Object.entries(observed).map(([step, choices]) => {
      const stepPath = childPath(path, step);
      if (step === '') throw new FormatError(stepPath, 'expected a step name, got an empty key');
      const byKey = expectObject(choices, stepPath);
      const options = Object.entries(byKey).map(([key, option]) => [key, expectString(option, childPath(stepPath, key))]);
      return [step, Object.fromEntries(options)];
    }),
  );
}

/**
 * Validates one case (docs/formats.md, "Trace files"): `id` and `inputs` required, no unknown fields, `seed` any safe
 * integer. `path` names it in messages (`cases[3]` or `line 5 (cases[3])`).
 */
export function parseCase(value: unknown, path: string): CaseDef {
  const object = expectObject(value, path);
  rejectUnknownFields(object, CASE_FIELDS, path);
  const parsed: CaseDef = {
    id: expectName(ownField(object, 'id'), childPath(path, 'id')),
    inputs: expectShallow(expectObject(ownField(object, 'inputs'), childPath(path, 'inputs')), childPath(path, 'inputs')),
  };
  const seed = ownField(object, 'seed');
  const observed = ownField(object, 'observed');
  const outputs = ownField(object, 'outputs');
  if (outputs !== undefined) expectShallow(outputs, childPath(path, 'outputs'));
  const score = ownField(object, 'score');
  return {
    ...parsed,
    ...(seed === undefined ? {} : { seed: expectInteger(seed, childPath(path, 'seed')) }),
    ...(observed === undefined ? {} : { observed: parseObserved(observed, childPath(path, 'observed')) }),
    ...(outputs === undefined ? {} : { outputs: expectObject(outputs, childPath(path, 'outputs')) }),
    ...(score === undefined ? {} : { score: expectFiniteNumber(score, childPath(path, 'score')) }),
  };
}

/** A case id: a non-empty string of at most MAX_NAME_LENGTH characters. */
function expectName(value: unknown, path: string): string {
  const name = expectNonEmptyString(value, path);
  if (name.length > MAX_NAME_LENGTH) throw new FormatError(path, `too long: ${name.length} characters (at most ${MAX_NAME_LENGTH})`);
  return name;
}

/** Data nested at most MAX_DATA_DEPTH levels (deeper data cannot be sent to a worker). */
function expectShallow<T>(value: T, path: string): T {
  const deep = pathPastDepth(value, MAX_DATA_DEPTH, path);
  if (deep !== null) throw new FormatError(deep, `nested more than ${MAX_DATA_DEPTH} levels deep (at most ${MAX_DATA_DEPTH})`);
  return value;
}

/**
 * Collects cases, rejecting a repeated id with both places named. Each case is added with its own
 * path, so a JSONL trace can name the line.
 */
class CaseCollector {
  readonly cases: CaseDef[] = [];
  private readonly placeById = new Map<string, string>();

  add(value: unknown, path: string): void {
    const parsed = parseCase(value, path);
    const earlier = this.placeById.get(parsed.id);
    if (earlier !== undefined) {
      throw new FormatError(childPath(path, 'id'), `duplicate case id ${JSON.stringify(parsed.id)} (also ${earlier})`);
    }
    this.placeById.set(parsed.id, path);
    this.cases.push(parsed);
  }
}

/**
 * Validates an array of cases at `path` (`cases`, `trace.cases`): each case as `parseCase` does,
 * ids distinct. The one set of case rules for traces, sessions and a definition's own cases.
 */
export function parseCaseList(value: unknown, path: string): CaseDef[] {
  const collector = new CaseCollector();
  expectArray(value, path).forEach((item, index) => collector.add(item, indexPath(path, index)));
  return collector.cases;
}

function buildTrace(pipeline: TracePipeline | undefined, cases: CaseDef[]): TraceFile {
  return {
    format: TRACE_FORMAT,
    version: TRACE_VERSION,
    ...(pipeline === undefined ? {} : { pipeline }),
    cases,
  };
}

/** Validates a trace given as one parsed JSON document. */
export function traceFromDocument(document: unknown): TraceFile {
  if (!isJsonObject(document)) {
    throw new FormatError('', `expected a JSON object at the top level, ${describeValue(document)}`);
  }
  expectFormatHeader(document, '', TRACE_FORMAT, TRACE_VERSION);
  rejectUnknownFields(document, DOCUMENT_FIELDS, '');
  const pipelineValue = ownField(document, 'pipeline');
  const pipeline = pipelineValue === undefined ? undefined : parsePipeline(pipelineValue, 'pipeline');
  const casesValue = ownField(document, 'cases');
  // A header line alone (a JSONL trace with no case lines) reads as one JSON document: valid when it
  // bundles a pipeline, as in the JSONL form.
  if (casesValue === undefined && pipeline !== undefined) return buildTrace(pipeline, []);
  if (casesValue === undefined) {
    throw new FormatError(
      'cases',
      'missing (a JSON trace lists its cases in "cases"; a JSONL trace puts one case per line after the header line)',
    );
  }
  const cases = parseCaseList(casesValue, 'cases');
  if (cases.length === 0 && pipeline === undefined) {
    throw new FormatError('cases', 'the trace has no cases (a trace without a pipeline needs at least one case)');
  }
  return buildTrace(pipeline, cases);
}

/** Validates a JSONL trace: a header line, then one case per non-empty line. */
function traceFromLines(text: string): TraceFile {
  const lines = text.split('\n');
  let pipeline: TracePipeline | undefined;
  let headerSeen = false;
  const collector = new CaseCollector();
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index].endsWith('\r') ? lines[index].slice(0, -1) : lines[index];
    if (line.trim() === '') continue;
    const lineNumber = index + 1;
    if (!headerSeen) {
      const where = `line ${lineNumber} (header)`;
      const header = expectObject(parseJson(line, where, lineNumber), where);
      expectFormatHeader(header, where, TRACE_FORMAT, TRACE_VERSION);
      rejectUnknownFields(header, HEADER_FIELDS, where);
      const pipelineValue = ownField(header, 'pipeline');
      pipeline = pipelineValue === undefined ? undefined : parsePipeline(pipelineValue, childPath(where, 'pipeline'));
      headerSeen = true;
      continue;
    }
    const where = `line ${lineNumber} (${indexPath('cases', collector.cases.length)})`;
    collector.add(parseJson(line, where, lineNumber), where);
  }
  // At least one case line exists: a header alone parses as one JSON document (traceFromDocument).
  return buildTrace(pipeline, collector.cases);
}

function firstNonEmptyLine(text: string): string | undefined {
  for (let start = 0; start <= text.length; ) {
    const end = text.indexOf('\n', start);
    const line = text.slice(start, end === -1 ? text.length : end);
    if (line.trim() !== '') return line;
    if (end === -1) return undefined;
    start = end + 1;
  }
  return undefined;
}

/**
 * Whether `line` is, on its own, a JSONL header: a JSON object without `cases`. A first line that
 * holds `cases` is a one-line JSON trace followed by stray text, reported as a JSON syntax error.
 */
function isJsonlHeaderLine(line: string): boolean {
  try {
    const value: unknown = JSON.parse(line);
    return isJsonObject(value) && !Object.hasOwn(value, 'cases');
  } catch {
    return false;
  }
}

/**
 * Parses an `agentblame-trace` file, JSON or JSONL. A text that is one JSON value is the JSON form;
 * otherwise, if its first non-empty line is a JSON object by itself (without `cases`), it is JSONL. Throws FormatError.
 */
export function parseTrace(text: string): TraceFile {
  const body = stripByteOrderMark(text);
  if (body.trim() === '') throw new FormatError('', 'the file is empty');
  let document: unknown;
  try {
    document = JSON.parse(body);
  } catch {
    const first = firstNonEmptyLine(body);
    if (first !== undefined && isJsonlHeaderLine(first)) return traceFromLines(body);
    parseJson(body); // throws the located syntax error
    throw new Error('parseTrace: unreachable'); // parseJson cannot succeed where JSON.parse failed
  }
  return traceFromDocument(document);
}

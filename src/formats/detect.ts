/**
 * Reads any input file the workbench accepts: asks each importer whether it recognises the file,
 * and when none does from the opening bytes, parses JSON once to read its top-level `format`.
 */
import { FormatError } from './format-error.ts';
import type { ImportedInput, Importer } from './importer.ts';
import { gameImporter } from './importers/game-importer.ts';
import { pipelineImporter } from './importers/pipeline-importer.ts';
import { traceImporter } from './importers/trace-importer.ts';
import { RECORDED_RUN_IMPORTERS } from './importers/recorded-runs.ts';
import { parseJson, stripByteOrderMark } from './parse-json.ts';
import { describeValue, isJsonObject, ownField } from './validate.ts';
import { describeNearMiss, nearestShape } from './nearest-shape.ts';

export type { ImportedInput, Importer } from './importer.ts';

/** Every format we read, in the order they are tried. Add new importers here. */
export const IMPORTERS: readonly Importer[] = [traceImporter, gameImporter, pipelineImporter, ...RECORDED_RUN_IMPORTERS];

/** "this reads: agentblame-trace (JSON or JSONL), ..." */
export function describeReadableFormats(importers: readonly Importer<unknown>[] = IMPORTERS): string {
  return `this reads: ${importers.map((importer) => importer.label).join('; ')}`;
}

/** The first JSON value of a text: the whole text, or else its first non-empty line (JSONL). */
function firstJsonValue(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const firstLine = text.split('\n', 64).find((line) => line.trim() !== '');
    if (firstLine !== undefined) {
      try {
        return JSON.parse(firstLine);
      } catch {
        // fall through to the located error for the whole text
      }
    }
    return parseJson(text);
  }
}

/**
 * What shows that a file read as text is binary (a NUL, or bytes that are not UTF-8, which reading
 * replaces with U+FFFD) in its opening, and where; a compressed export is named so it can be
 * unpacked first. Null for text.
 */
function binaryProblem(text: string): string | null {
  const at = text.slice(0, 4096).search(/[\u0000\uFFFD]/);
  if (at < 0) return null;
  const packed = text.startsWith('\u001f\uFFFD') ? ': it looks gzip-compressed, decompress it first (gunzip)' : text.startsWith('PK\u0003\u0004') ? ': it looks like a zip archive, unpack it first' : '';
  return `is not text but binary data (character ${at + 1} is ${text[at] === '\u0000' ? 'a NUL byte' : 'not UTF-8'})${packed}; this reads text files (JSON, JSONL, .js)`;
}

/** "a JSON array of 3 numbers", "an empty JSON array", "a JSON array of 4 values (numbers, strings)". */
function describeArray(list: readonly unknown[]): string {
  if (list.length === 0) return 'an empty JSON array';
  const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value === 'object' ? 'object' : typeof value);
  const kinds = [...new Set(list.map(kindOf))];
  const plural: Record<string, string> = { number: 'numbers', string: 'strings', boolean: 'booleans', null: 'nulls', array: 'arrays', object: 'objects' };
  const one: Record<string, string> = { number: 'number', string: 'string', boolean: 'boolean', null: 'null', array: 'array', object: 'object' };
  const n = String(list.length);
  if (kinds.length === 1) return `a JSON array of ${n} ${list.length === 1 ? one[kinds[0]] : plural[kinds[0]]}`;
  return `a JSON array of ${n} values (${kinds.map((kind) => plural[kind]).join(', ')})`;
}

/**
 * Detects the format of `text` and parses it. Throws FormatError naming the problem, or listing
 * the formats we read when the file is none of them.
 */
export function parseInputFile(text: string, fileName?: string): ImportedInput;
export function parseInputFile<Input>(text: string, fileName: string | undefined, importers: readonly Importer<Input>[]): Input;
export function parseInputFile(text: string, fileName?: string, importers: readonly Importer<unknown>[] = IMPORTERS): unknown {
  const sniffed = importers.find((importer) => importer.sniff(text, fileName));
  if (sniffed !== undefined) return sniffed.import(text, fileName);

  const body = stripByteOrderMark(text);
  const named = fileName === undefined ? 'the file' : `"${fileName}"`;
  if (body.trim() === '') throw new FormatError('', `${named} is empty (${describeReadableFormats(importers)})`);
  const binary = binaryProblem(body);
  if (binary !== null) throw new FormatError('', `${named} ${binary}`);
  const opensArray = body.trimStart().startsWith('[');
  if (!body.trimStart().startsWith('{') && !opensArray) {
    throw new FormatError('', `${named} is not a format this workbench reads (${describeReadableFormats(importers)})`);
  }
  const document = firstJsonValue(body);
  // The sniffs read only the opening: a known shape whose telling fields come later is found here.
  const shaped = importers.find((importer) => importer.recognize?.(document, body) === true);
  if (shaped !== undefined) return shaped.import(text, fileName);
  // A file that comes near one of our shapes is told which, and what it lacks, rather than given every format.
  const near = nearestShape(document, importers.flatMap((importer) => importer.shapes ?? []));
  if (near !== null && !(isJsonObject(document) && ownField(document, 'format') !== undefined)) throw new FormatError('', `${named} ${describeNearMiss(near)}`);
  // A list near none of the shapes: said in a few words, not with every format (none of them is a bare list of values).
  if (Array.isArray(document)) throw new FormatError('', `${named} is ${describeArray(document)}, not a trace or any other file this workbench reads (those are JSON objects, or JSONL lines of them)`);
  if (!isJsonObject(document)) {
    throw new FormatError('', `expected a JSON object at the top level, ${describeValue(document)}`);
  }
  const format = ownField(document, 'format');
  const byFormat = importers.find((importer) => importer.jsonFormat !== undefined && importer.jsonFormat === format);
  if (byFormat !== undefined) return byFormat.import(text, fileName);
  const problem =
    format === undefined
      ? 'missing: a JSON input names its format'
      : typeof format === 'string'
        ? `unknown format ${JSON.stringify(format)}`
        : `expected a string naming the format, ${describeValue(format)}`;
  throw new FormatError('format', `${problem} (${describeReadableFormats(importers)})`);
}

/**
 * The extension point for input formats, in the style of speedscope's importers: each format is one
 * file exporting an Importer; `detect.ts` keeps the list and asks each in turn whether it
 * recognises a file. To read a new format, add its variant to ImportedInput, write an importer,
 * and add it to the list in detect.ts. A layer above may extend the list with inputs of its own:
 * session files and reports are read by `src/session/opened-input.ts` (a session is not a format
 * this layer knows), through the same `parseInputFile`.
 */
import type { GameFile } from './game.ts';
import type { TraceFile } from './trace.ts';
import type { RecordedRunFile, Predictions } from '../runs/index.ts';
import type { FormatShape } from './nearest-shape.ts';

export type ImportedInput =
  | { kind: 'trace'; trace: TraceFile }
  | { kind: 'game'; game: GameFile }
  | { kind: 'pipeline'; source: string }
  /** Recorded runs of real agents (docs/recorded-runs.md): OTel GenAI, OpenInference, Langfuse, LangSmith, runtape, Who&When... */
  | { kind: 'runs'; runs: RecordedRunFile }
  /** Predicted culprits to score against labelled runs: `{ "<run id>": { agent, step } }`. */
  | { kind: 'predictions'; predictions: Predictions };

/** One input format; `Input` is what it reads into (ImportedInput here, wider where a layer above adds formats). */
export interface Importer<Input = ImportedInput> {
  /** How the format is named in "this reads ..." messages. */
  readonly label: string;
  /**
   * For JSON formats: the value of the top-level `format` field. Used when sniffing from the
   * opening bytes was inconclusive (a file whose `format` is not its first field).
   */
  readonly jsonFormat?: string;
  /** Cheap check on the file name and the start of the text; must not parse the whole file. */
  sniff(text: string, fileName?: string): boolean;
  /**
   * For JSON formats: whether the parsed document (the whole text, or a JSONL file's first line)
   * has this format's shape. Asked when no importer's sniff matched, so a file is recognised
   * however much precedes its telling fields (sniffs read only the opening).
   */
  recognize?(parsed: unknown, text: string): boolean;
  /**
   * For JSON formats: the key paths that tell this format's files, so a refused file can be told
   * which format it comes nearest to and what it lacks (nearest-shape.ts).
   */
  readonly shapes?: readonly FormatShape[];
  /** Parses and validates; throws FormatError. */
  import(text: string, fileName?: string): Input;
}

/**
 * Whether a JSON text opens with `{"format": "<format>"` (whitespace allowed), the way our own
 * writers emit it. Only the first field is checked, so a nested "format" key can never be mistaken
 * for the file's format.
 */
export function opensWithJsonFormat(text: string, format: string): boolean {
  const opening = /^\uFEFF?\s*\{\s*"format"\s*:\s*"([^"\\]*)"/.exec(text.slice(0, 256));
  return opening !== null && opening[1] === format;
}

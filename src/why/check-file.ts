/**
 * The check file (`agentblame-check`, docs/why.md): what `blame --check` reruns to see that a bad
 * call stays fixed. Read from disk, so it is validated here, at the edge, with errors naming the
 * JSON path.
 */
import { FormatError } from '../formats/format-error.ts';
import { childPath, indexPath } from '../formats/json-path.ts';
import { parseJson } from '../formats/parse-json.ts';
import { expectArray, expectInteger, expectNonEmptyString, expectObject, expectString, ownField, rejectUnknownFields, type JsonObject } from '../formats/validate.ts';
import type { PiecePath } from './context.ts';
import { compileMatch, type Predicate } from './decision.ts';
import type { Fix, FixName } from './fixes.ts';

export const CHECK_FORMAT = 'agentblame-check';
export const CHECK_VERSION = 1;

export interface CheckFile {
  format: typeof CHECK_FORMAT;
  version: typeof CHECK_VERSION;
  /** The recorded run: its file (relative to the check file), the run's id, and the call's digest (call-digest.ts). */
  trace: { file: string; run: string; digest: string };
  /** The model call: its step index and step id. */
  call: { index: number; step: string };
  predicate: Predicate;
  /** The fix the check holds the call to (null: the recorded context as it is). */
  fix: Fix | null;
  runs: number;
  model: string;
  /** The world seed of the reruns' seeds. */
  seed: number;
}

const FIX_NAMES: readonly FixName[] = ['untrusted-content', 'action-guard', 'both', 'fix-the-source'];

export function serializeCheck(check: CheckFile): string {
  return JSON.stringify(check, null, 2) + '\n';
}

/** The check file's contents, validated; a FormatError names the JSON path of the first problem. */
export function parseCheck(text: string): CheckFile {
  const root = expectObject(parseJson(text), '');
  rejectUnknownFields(root, ['format', 'version', 'trace', 'call', 'predicate', 'fix', 'runs', 'model', 'seed'], '');
  if (ownField(root, 'format') !== CHECK_FORMAT) throw new FormatError('format', `expected "${CHECK_FORMAT}"`);
  if (ownField(root, 'version') !== CHECK_VERSION) throw new FormatError('version', `expected ${CHECK_VERSION} (this version of agentblame reads version ${CHECK_VERSION})`);
  const trace = expectObject(ownField(root, 'trace'), 'trace');
  rejectUnknownFields(trace, ['file', 'run', 'digest'], 'trace');
  const digest = expectString(ownField(trace, 'digest'), 'trace.digest');
  if (!/^[0-9a-f]{64}$/.test(digest)) throw new FormatError('trace.digest', 'expected a SHA-256: 64 lower-case hex digits');
  const call = expectObject(ownField(root, 'call'), 'call');
  rejectUnknownFields(call, ['index', 'step'], 'call');
  const index = expectInteger(ownField(call, 'index'), 'call.index');
  if (index < 0) throw new FormatError('call.index', `expected a step index (0 or more), got ${index}`);
  const runs = expectInteger(ownField(root, 'runs'), 'runs');
  if (runs < 1 || runs > 1000) throw new FormatError('runs', `expected 1 to 1000 reruns, got ${runs}`);
  const fixValue = ownField(root, 'fix');
  return {
    format: CHECK_FORMAT,
    version: CHECK_VERSION,
    trace: { file: expectNonEmptyString(ownField(trace, 'file'), 'trace.file'), run: expectString(ownField(trace, 'run'), 'trace.run'), digest },
    call: { index, step: expectString(ownField(call, 'step'), 'call.step') },
    predicate: readPredicate(ownField(root, 'predicate'), 'predicate'),
    fix: fixValue === null ? null : readFix(fixValue, 'fix'),
    runs,
    model: expectNonEmptyString(ownField(root, 'model'), 'model'),
    seed: expectInteger(ownField(root, 'seed'), 'seed'),
  };
}

function readPredicate(value: unknown, path: string): Predicate {
  const o = expectObject(value, path);
  rejectUnknownFields(o, ['tool', 'match'], path);
  const tool = o.tool === undefined ? undefined : expectNonEmptyString(ownField(o, 'tool'), childPath(path, 'tool'));
  const match = o.match === undefined ? undefined : expectString(ownField(o, 'match'), childPath(path, 'match'));
  if (match !== undefined) {
    try {
      compileMatch(match);
    } catch (error) {
      throw new FormatError(childPath(path, 'match'), (error as Error).message);
    }
  }
  if (tool === undefined && match === undefined) throw new FormatError(path, 'expected a tool, a match, or both');
  return { ...(tool !== undefined && { tool }), ...(match !== undefined && { match }) };
}

function readFix(value: unknown, path: string): Fix {
  const o = expectObject(value, path);
  rejectUnknownFields(o, ['name', 'addSystem', 'remove', 'fill'], path);
  const name = expectString(ownField(o, 'name'), childPath(path, 'name'));
  if (!(FIX_NAMES as readonly string[]).includes(name)) throw new FormatError(childPath(path, 'name'), `expected one of ${FIX_NAMES.join(', ')}, got "${name}"`);
  const fix: Fix = { name: name as FixName };
  if (o.addSystem !== undefined) fix.addSystem = expectNonEmptyString(ownField(o, 'addSystem'), childPath(path, 'addSystem'));
  if (o.fill !== undefined) fix.fill = expectString(ownField(o, 'fill'), childPath(path, 'fill'));
  if (o.remove !== undefined) fix.remove = expectArray(ownField(o, 'remove'), childPath(path, 'remove')).map((p, i) => readPath(p, indexPath(childPath(path, 'remove'), i)));
  if (fix.addSystem === undefined && fix.remove === undefined) throw new FormatError(path, 'expected addSystem, remove, or both');
  return fix;
}

function readPath(value: unknown, path: string): PiecePath {
  const o: JsonObject = expectObject(value, path);
  rejectUnknownFields(o, ['message', 'pointer', 'paragraph', 'sentence'], path);
  const whole = (key: string): number | undefined => {
    if (o[key] === undefined) return undefined;
    const n = expectInteger(ownField(o, key), childPath(path, key));
    if (n < 0) throw new FormatError(childPath(path, key), `expected an index (0 or more), got ${n}`);
    return n;
  };
  const message = whole('message');
  if (message === undefined) throw new FormatError(childPath(path, 'message'), 'missing (expected a message index)');
  const out: PiecePath = { message };
  if (o.pointer !== undefined) {
    const pointer = expectString(ownField(o, 'pointer'), childPath(path, 'pointer'));
    if (pointer !== '' && !pointer.startsWith('/')) throw new FormatError(childPath(path, 'pointer'), 'expected a JSON pointer ("" or starting with "/")');
    out.pointer = pointer;
  }
  const paragraph = whole('paragraph');
  const sentence = whole('sentence');
  if (sentence !== undefined && paragraph === undefined) throw new FormatError(childPath(path, 'sentence'), 'a sentence is counted inside a paragraph: give paragraph too');
  if (paragraph !== undefined) out.paragraph = paragraph;
  if (sentence !== undefined) out.sentence = sentence;
  return out;
}

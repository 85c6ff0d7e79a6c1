/**
 * A study's metadata (docs/trends.md): when its cases were recorded, the pipeline's version and
 * free tags. The validator reads the session field `meta` (untrusted JSON); the same checks serve
 * the command's flags and the page's edits, so all three refuse the same values.
 */
import { FormatError } from '../formats/format-error.ts';
import { childPath, indexPath } from '../formats/json-path.ts';
import { expectArray, expectObject, expectString, rejectUnknownFields } from '../formats/validate.ts';
import { sha256 } from '../engine/sha256.ts';
import { tagKey } from '../engine/tags.ts';

export { tagKey, tagValue } from '../engine/tags.ts';
import { RECORDED_FROM, type Session, type StudyMeta } from './types.ts';
import { expectOneOf, expectTimestamp, optionalField, requiredField } from './validate-fields.ts';

export const MAX_TAGS = 32;
export const MAX_LABEL_LENGTH = 80;

/**
 * What is wrong with a tag or version label, or null: 1 to 80 characters, no control characters,
 * no leading or trailing space; a tag's key (before its first `=`) is not empty.
 */
export function labelProblem(text: string, what: 'tag' | 'version label'): string | null {
  if (text.length === 0) return `a ${what} cannot be empty`;
  if (text.length > MAX_LABEL_LENGTH) return `a ${what} has at most ${MAX_LABEL_LENGTH} characters (this one has ${text.length})`;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/.test(text)) return `a ${what} cannot hold control characters`;
  if (text.trim() !== text) return `a ${what} cannot start or end with a space`;
  if (what === 'tag' && text.startsWith('=')) return 'a tag "key=value" needs a key before "="';
  return null;
}

/** Tags checked together: each valid, no key twice (`model=a` and `model=b` would be ambiguous), at most MAX_TAGS. */
export function tagsProblem(tags: readonly string[]): { index: number; problem: string } | null {
  if (tags.length > MAX_TAGS) return { index: MAX_TAGS, problem: `at most ${MAX_TAGS} tags` };
  const keys = new Set<string>();
  for (let i = 0; i < tags.length; i++) {
    const problem = labelProblem(tags[i], 'tag');
    if (problem) return { index: i, problem };
    const key = tagKey(tags[i]);
    if (keys.has(key)) return { index: i, problem: `a second tag with the key ${JSON.stringify(key)}` };
    keys.add(key);
  }
  return null;
}

function expectLabel(value: unknown, path: string): string {
  const text = expectString(value, path);
  const problem = labelProblem(text, 'version label');
  if (problem) throw new FormatError(path, problem);
  return text;
}

function expectTags(value: unknown, path: string): string[] {
  const list = expectArray(value, path);
  const tags = list.map((item, i) => expectString(item, indexPath(path, i)));
  const found = tagsProblem(tags);
  if (found) throw new FormatError(indexPath(path, found.index), found.problem);
  return tags;
}

/** The session field `meta`: `{ version: 1, recordedAt, recordedFrom, pipelineVersion?, tags }`. */
export function validateStudyMeta(value: unknown, path: string): StudyMeta {
  const object = expectObject(value, path);
  rejectUnknownFields(object, ['version', 'recordedAt', 'recordedFrom', 'pipelineVersion', 'tags'], path);
  const version = requiredField(object, 'version', path, (v) => v);
  if (version !== 1) throw new FormatError(childPath(path, 'version'), `expected 1 (the only version of the study metadata), got ${JSON.stringify(version)}`);
  const recordedAt = requiredField(object, 'recordedAt', path, expectTimestamp);
  const recordedFrom = requiredField(object, 'recordedFrom', path, (v, p) => expectOneOf(v, RECORDED_FROM, p));
  const pipelineVersion = optionalField(object, 'pipelineVersion', path, expectLabel);
  const tags = requiredField(object, 'tags', path, expectTags);
  return { version: 1, recordedAt, recordedFrom, ...(pipelineVersion !== undefined && { pipelineVersion }), tags };
}

/** A session's metadata; one written before `meta` existed reads as recorded when it was created, with no tags. */
export function studyMetaOf(session: Pick<Session, 'meta' | 'createdAt'>): StudyMeta {
  return session.meta ?? { version: 1, recordedAt: session.createdAt, recordedFrom: 'created', tags: [] };
}

const HEX = '0123456789abcdef';

/**
 * The pipeline version a study is grouped under: its label, else `def:` and the first 12 hex digits
 * of the SHA-256 of its definition's source (one edit of the definition is a new version), else
 * `games` for a study of game tables (no definition).
 */
export function pipelineVersionOf(session: Pick<Session, 'meta' | 'pipeline'>): string {
  if (session.meta?.pipelineVersion !== undefined) return session.meta.pipelineVersion;
  if (session.pipeline === undefined) return 'games';
  const digest = sha256(new TextEncoder().encode(session.pipeline.source));
  let hex = '';
  for (let i = 0; i < 6; i++) hex += HEX[digest[i] >> 4] + HEX[digest[i] & 15];
  return `def:${hex}`;
}

/**
 * When recorded runs were recorded: the earliest step start among them (epoch ms), as an ISO
 * timestamp, or undefined when no step records a time.
 */
export function recordedAtOfRuns(runs: readonly { steps: readonly { start: number | null }[] }[]): string | undefined {
  let earliest = Infinity;
  for (const run of runs) for (const step of run.steps) if (step.start !== null && Number.isFinite(step.start) && step.start < earliest) earliest = step.start;
  if (earliest === Infinity) return undefined;
  const date = new Date(earliest);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

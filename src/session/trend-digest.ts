/**
 * A stored study as trends read it (docs/trends.md): its digest, computed from its case results
 * (a file's `batch` or any summary written in it is never read), with its metadata. The page's
 * store and the command's cache keep these digests, each computed here once per stored version.
 */
import { trendDigest, TREND_DIGEST_VERSION, type TrendDigest } from '../engine/trends.ts';
import { FormatError } from '../formats/format-error.ts';
import { childPath, indexPath } from '../formats/json-path.ts';
import { expectArray, expectFiniteNumber, expectInteger, expectObject, expectString, rejectUnknownFields } from '../formats/validate.ts';
import { toTableGames } from './games.ts';
import { pipelineVersionOf, studyMetaOf } from './study-meta.ts';
import type { Session } from './types.ts';
import { expectInterval, expectTimestamp, optionalField, requiredField } from './validate-fields.ts';

/** The name a study's trends are listed under: its pipeline's name, else the session's. */
export function trendPipelineName(session: Pick<Session, 'pipeline' | 'name'>): string {
  return session.pipeline?.name ?? session.name;
}

/** The digest of a session: its analysed failures' values, with the metric range of its study mark (or first game). */
export function sessionTrendDigest(session: Session): TrendDigest {
  const meta = studyMetaOf(session);
  const firstGame = session.games?.[0];
  const range = session.study?.range ?? (firstGame && toTableGames([firstGame])[0].range);
  return trendDigest(
    { id: session.id, name: trendPipelineName(session), recordedAt: meta.recordedAt, pipelineVersion: pipelineVersionOf(session), tags: meta.tags, ...(range && { range }), ...(session.study?.shard && { shard: { fingerprint: session.study.fingerprint, ...session.study.shard } }) },
    session.results,
  );
}

function numbers(value: unknown, path: string): number[] {
  return expectArray(value, path).map((x, i) => expectFiniteNumber(x, indexPath(path, i)));
}

/**
 * A digest read back from a cache the command keeps on disk (its own files, but a disk can be
 * edited or damaged): every field checked, the columns of one length; a bad one is recomputed.
 */
export function validateTrendDigest(value: unknown, path: string): TrendDigest {
  const object = expectObject(value, path);
  rejectUnknownFields(object, ['digestVersion', 'id', 'name', 'recordedAt', 'pipelineVersion', 'tags', 'failures', 'steps', 'mass', 'shapley', 'resolved', 'range', 'shard'], path);
  if (object.digestVersion !== TREND_DIGEST_VERSION) throw new FormatError(childPath(path, 'digestVersion'), `expected ${TREND_DIGEST_VERSION}`);
  const steps = requiredField(object, 'steps', path, (v, p) => expectArray(v, p).map((x, i) => expectString(x, indexPath(p, i))));
  const mass = requiredField(object, 'mass', path, numbers);
  const shapley = requiredField(object, 'shapley', path, (v, p) => expectArray(v, p).map((column, i) => numbers(column, indexPath(p, i))));
  const resolved = requiredField(object, 'resolved', path, (v, p) => expectArray(v, p).map((x, i) => expectInteger(x, indexPath(p, i))));
  if (shapley.length !== steps.length || resolved.length !== steps.length) throw new FormatError(childPath(path, 'shapley'), 'one column per step');
  shapley.forEach((column, i) => {
    if (column.length !== mass.length) throw new FormatError(indexPath(childPath(path, 'shapley'), i), `expected ${mass.length} values, one per analysed failure`);
  });
  resolved.forEach((count, i) => {
    if (count < 0 || count > mass.length) throw new FormatError(indexPath(childPath(path, 'resolved'), i), `expected 0 to ${mass.length}`);
  });
  const failures = requiredField(object, 'failures', path, expectInteger);
  const range = optionalField(object, 'range', path, expectInterval);
  const shard = optionalField(object, 'shard', path, (v, p) => {
    const o = expectObject(v, p);
    rejectUnknownFields(o, ['fingerprint', 'index', 'count'], p);
    return { fingerprint: requiredField(o, 'fingerprint', p, expectString), index: requiredField(o, 'index', p, expectInteger), count: requiredField(o, 'count', p, expectInteger) };
  });
  return {
    digestVersion: TREND_DIGEST_VERSION,
    id: requiredField(object, 'id', path, expectString),
    name: requiredField(object, 'name', path, expectString),
    recordedAt: requiredField(object, 'recordedAt', path, expectTimestamp),
    pipelineVersion: requiredField(object, 'pipelineVersion', path, expectString),
    tags: requiredField(object, 'tags', path, (v, p) => expectArray(v, p).map((x, i) => expectString(x, indexPath(p, i)))),
    failures,
    steps,
    mass,
    shapley,
    resolved,
    ...(range && { range }),
    ...(shard && { shard }),
  };
}

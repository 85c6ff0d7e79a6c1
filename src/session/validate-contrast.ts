/**
 * The session's `contrast` field (types.ts, SessionContrast) from untrusted JSON: every field
 * checked with its JSON path named, unknown fields refused, and the numbers held to what the
 * contrast computes (a rate is failures / n, a difference is the two rates' difference), so a
 * tampered file cannot show a contrast the replays did not give.
 */
import { FormatError } from '../formats/format-error.ts';
import { childPath, indexPath } from '../formats/json-path.ts';
import { expectFiniteNumber, expectInteger, expectObject, expectString, rejectUnknownFields } from '../formats/validate.ts';
import type { ContrastArm, ContrastTurn, ContrastTurnRow, RunContrast, SessionContrast } from './types.ts';
import { arrayOf, expectInterval, requiredField } from './validate-fields.ts';
import { wilsonInterval } from '../engine/stats/wilson-interval.ts';
import { newcombeInterval } from '../engine/stats/newcombe-interval.ts';
import { COMMITMENT_EPSILON, commitmentRow } from '../engine/stats/commitment.ts';

/** The contrast's own schema version (the session's stays 1). */
export const CONTRAST_VERSION = 1;
/** The most replays per arm the command and the page accept. */
const MAX_REPLAYS = 10_000;
/** Rounding allowed between a stored rate and the one its counts give (JSON keeps doubles exactly; this is slack for other writers). */
const TOLERANCE = 1e-9;
/** An interval recomputed from its counts may differ from a stored one by a writer's rounding to 4 decimals, no more. */
const INTERVAL_TOLERANCE = 1e-4;

function count(value: unknown, path: string, max: number): number {
  const n = expectInteger(value, path);
  if (n < 0 || n > max) throw new FormatError(path, `expected a whole number from 0 to ${max}, got ${n}`);
  return n;
}

/** A stored interval that must be the one its counts give. */
function same(ci: readonly [number, number], expected: readonly [number, number], path: string, what: string): void {
  if (Math.abs(ci[0] - expected[0]) > INTERVAL_TOLERANCE || Math.abs(ci[1] - expected[1]) > INTERVAL_TOLERANCE) throw new FormatError(path, `expected ${what}, [${expected.join(', ')}], got [${ci.join(', ')}]`);
}

/** An interval inside [lo, hi]. */
function intervalWithin(value: unknown, path: string, lo: number, hi: number): [number, number] {
  const ci = expectInterval(value, path);
  if (ci[0] < lo || ci[1] > hi) throw new FormatError(path, `expected an interval within [${lo}, ${hi}], got [${ci.join(', ')}]`);
  return ci;
}

function validateArm(replays: number) {
  return (value: unknown, path: string): ContrastArm => {
    const object = expectObject(value, path);
    rejectUnknownFields(object, ['failures', 'n', 'rate', 'ci'], path);
    const failures = requiredField(object, 'failures', path, (v, p) => count(v, p, replays));
    const n = requiredField(object, 'n', path, (v, p) => count(v, p, replays));
    if (failures > n) throw new FormatError(childPath(path, 'failures'), `${failures} failures of ${n} replays`);
    const rate = requiredField(object, 'rate', path, expectFiniteNumber);
    const expected = n === 0 ? 0 : failures / n;
    if (Math.abs(rate - expected) > TOLERANCE) throw new FormatError(childPath(path, 'rate'), `expected ${failures}/${n} = ${expected}, got ${rate}`);
    const ci = requiredField(object, 'ci', path, (v, p) => intervalWithin(v, p, 0, 1));
    same(ci, wilsonInterval(failures, n), childPath(path, 'ci'), `the Wilson interval of ${failures}/${n}`);
    return { failures, n, rate, ci };
  };
}

const TURN_FIELDS = ['index', 'step', 'name', 'agent'] as const;

function turnFields(object: Record<string, unknown>, path: string): ContrastTurn {
  return {
    index: requiredField(object, 'index', path, (v, p) => count(v, p, Number.MAX_SAFE_INTEGER)),
    step: requiredField(object, 'step', path, expectInteger),
    name: requiredField(object, 'name', path, expectString),
    agent: requiredField(object, 'agent', path, expectString),
  };
}

function validateRow(replays: number) {
  return (value: unknown, path: string): ContrastTurnRow => {
    const object = expectObject(value, path);
    rejectUnknownFields(object, [...TURN_FIELDS, 'regenerated', 'kept', 'difference', 'ci'], path);
    const turn = turnFields(object, path);
    const regenerated = requiredField(object, 'regenerated', path, validateArm(replays));
    const kept = requiredField(object, 'kept', path, validateArm(replays));
    const difference = requiredField(object, 'difference', path, expectFiniteNumber);
    const expected = regenerated.rate - kept.rate;
    if (Math.abs(difference - expected) > TOLERANCE) throw new FormatError(childPath(path, 'difference'), `expected regenerated.rate - kept.rate = ${expected}, got ${difference}`);
    const ci = requiredField(object, 'ci', path, (v, p) => intervalWithin(v, p, -1, 1));
    same(ci, newcombeInterval(regenerated.failures, regenerated.n, kept.failures, kept.n), childPath(path, 'ci'), "Newcombe's interval of the two arms");
    return { ...turn, regenerated, kept, difference, ci };
  };
}

function validateRun(replays: number, caseIds: ReadonlySet<string>) {
  return (value: unknown, path: string): RunContrast => {
    const object = expectObject(value, path);
    rejectUnknownFields(object, ['run', 'commitment', 'contrast', 'errors'], path);
    const run = requiredField(object, 'run', path, expectString);
    if (!caseIds.has(run)) throw new FormatError(childPath(path, 'run'), `${JSON.stringify(run.slice(0, 80))} is not one of the session's cases`);
    const contrast = requiredField(object, 'contrast', path, (v, p) => arrayOf(v, p, validateRow(replays)));
    contrast.forEach((row, k) => {
      if (k > 0 && row.index <= contrast[k - 1].index) throw new FormatError(childPath(indexPath(childPath(path, 'contrast'), k), 'index'), `turns must be in order: ${row.index} after ${contrast[k - 1].index}`);
    });
    const commitment = requiredField(object, 'commitment', path, (v, p) => {
      if (v === null) return null;
      const o = expectObject(v, p);
      rejectUnknownFields(o, TURN_FIELDS, p);
      const turn = turnFields(o, p);
      const row = contrast.find((r) => r.index === turn.index);
      if (!row || row.step !== turn.step || row.name !== turn.name || row.agent !== turn.agent) throw new FormatError(p, `turn ${turn.index} is not one of the contrast's rows`);
      return turn;
    });
    const errors = requiredField(object, 'errors', path, (v, p) => count(v, p, Number.MAX_SAFE_INTEGER));
    // Recomputed from the rows: the point of commitment, and the replays the arms hold.
    const expected = commitmentRow(contrast);
    if ((expected?.index ?? null) !== (commitment?.index ?? null)) {
      throw new FormatError(childPath(path, 'commitment'), `the rows give ${expected ? `turn ${expected.index}` : 'no point of commitment'} (the earliest turn whose kept arm's Wilson lower bound reaches ${1 - COMMITMENT_EPSILON}), not ${commitment ? `turn ${commitment.index}` : 'none'}`);
    }
    contrast.forEach((row, k) => {
      const next = contrast[k + 1];
      // Keeping turn t is regenerating from the next model turn: one arm, shared by two rows.
      if (next && (row.kept.failures !== next.regenerated.failures || row.kept.n !== next.regenerated.n)) {
        throw new FormatError(childPath(indexPath(childPath(path, 'contrast'), k), 'kept'), `${row.kept.failures}/${row.kept.n} differs from the next row's regenerated arm ${next.regenerated.failures}/${next.regenerated.n}, which is the same replays`);
      }
    });
    if (contrast.length > 0) {
      const held = contrast.reduce((sum, row) => sum + row.regenerated.n, 0) + contrast[contrast.length - 1].kept.n + errors;
      const arms = contrast.length + 1;
      if (held !== replays * arms) throw new FormatError(path, `its ${arms} arms hold ${held} replays (errors included), not ${replays} per arm (${replays * arms})`);
    }
    return { run, commitment, contrast, errors };
  };
}

/** The `contrast` field of a session whose cases have the ids `caseIds`; one entry per run at most. */
export function validateSessionContrast(value: unknown, path: string, caseIds: ReadonlySet<string>): SessionContrast {
  const object = expectObject(value, path);
  rejectUnknownFields(object, ['version', 'replays', 'runs'], path);
  const version = requiredField(object, 'version', path, expectInteger);
  if (version !== CONTRAST_VERSION) throw new FormatError(childPath(path, 'version'), `expected contrast version ${CONTRAST_VERSION}, got ${version} (written by a newer agentblame?)`);
  const replays = requiredField(object, 'replays', path, (v, p) => count(v, p, MAX_REPLAYS));
  if (replays < 1) throw new FormatError(childPath(path, 'replays'), 'expected at least 1 replay per arm');
  const runs = requiredField(object, 'runs', path, (v, p) => arrayOf(v, p, validateRun(replays, caseIds)));
  const seen = new Set<string>();
  runs.forEach((r, k) => {
    if (seen.has(r.run)) throw new FormatError(childPath(indexPath(childPath(path, 'runs'), k), 'run'), `second contrast for run ${JSON.stringify(r.run.slice(0, 80))}`);
    seen.add(r.run);
  });
  return { version: CONTRAST_VERSION, replays, runs };
}

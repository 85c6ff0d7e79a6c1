/**
 * Session files, reports, shards and caches come from other people: nothing in them is trusted.
 * Each test forges a file the way a colleague's (or an attacker's) could arrive and runs the
 * command as a user would: a forged number never reaches a printed result, a file's model
 * responses never leak into the user's cache, and a forged shard never merges silently.
 */
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { requestKey, type ChatRequest } from '../engine/model-call.ts';
import { blameSync as blame, scratchFiles } from '../cli/testing/run-blame.ts';

const ROOT = join(import.meta.dirname, '../..');
const TRIAGE = join(ROOT, 'public/demos/support-triage.trace.json');
const RESPONSES = join(ROOT, 'public/demos/support-triage.responses.jsonl');
const REFUND = join(ROOT, 'public/demos/refund-policy.trace.json');
const at = scratchFiles('blame-untrusted-');

/** Bad input: exit 2, nothing on stdout, one line on stderr; returns that line. */
function refused(r: ReturnType<typeof blame>): string {
  expect(r.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(r.stdout).toBe('');
  expect(r.status).toBe(2);
  return r.stderr.trimEnd();
}

// Forged files are edited as loose JSON on purpose.
type Json = Record<string, any>;
const readJson = (path: string): Json => JSON.parse(readFileSync(path, 'utf8'));
/** A copy of a session file changed by `edit`, written under `name`. */
function forge(from: string, name: string, edit: (session: Json) => void): string {
  const session = readJson(from);
  edit(session);
  writeFileSync(at(name), JSON.stringify(session));
  return at(name);
}
/**
 * The printed results without the model accounting: a response is charged to whichever case
 * asked for it first, which depends on the workers' timing, and shards each count their own cache
 * hits; the values do not depend on either.
 */
function values(stdout: string): Json {
  const out = JSON.parse(stdout);
  for (const c of out.cases) delete c.usage;
  delete out.batch.usage;
  return out;
}
const stepMean = (stdout: string, step: string): number => JSON.parse(stdout).batch.steps.find((s: Json) => s.step === step).meanShapley;
/** Cache entries (JSONL) whose request is the reviewer's, answered "reject" whatever the draft. */
const isReview = (entry: Json): boolean => entry.request.messages.some((m: Json) => m.content.startsWith('Review this reply'));
const rejectAll = (entry: Json): Json => ({ ...entry, response: { ...entry.response, topLogprobs: [{ token: 'reject', logprob: 0 }, { token: 'approve', logprob: -50 }] } });

// The model-step demo, analysed from its shipped responses (review blame 0.508), whole and in two shards.
const triage = [TRIAGE, '--cache', RESPONSES, '--offline', '--json'];
const whole = blame(...triage, '--save', at('triage.json'));
const shards = [1, 2].map((i) => blame(...triage, '--shard', `${i}/2`, '--save', at(`shard-${i}.json`)));
const refund = blame(REFUND, '--json', '--save', at('refund.json'));

describe('the fixtures', () => {
  it('analyse', () => {
    expect(whole.status).toBe(0);
    expect(shards.map((s) => s.status)).toEqual([0, 0]);
    expect(refund.status).toBe(0);
    expect(stepMean(whole.stdout, 'review')).toBeCloseTo(0.5076, 4);
  });
});

describe("a file's model responses are its own", () => {
  it('entries no result of the file names are dropped when it is read', () => {
    const extraRequest: ChatRequest = { model: 'agentblame-test-model', messages: [{ role: 'user', content: 'not asked by any result' }] };
    const extra = { key: requestKey(extraRequest), request: extraRequest, response: { text: 'x', finish: 'stop', usage: { input: 1, output: 1 } } };
    const file = forge(at('triage.json'), 'extra.json', (s) => s.modelCache.push(extra));
    expect(blame(file, '--save', at('extra-saved.json')).status).toBe(0);
    const saved = readJson(at('extra-saved.json'));
    expect(saved.modelCache.map((e: Json) => e.key)).not.toContain(extra.key);
    expect(saved.modelCache).toHaveLength(readJson(at('triage.json')).modelCache.length);
  });

  it("printing a session with --cache never appends the session's responses to the cache file", () => {
    const forged = forge(at('triage.json'), 'poisoned.json', (s) => (s.modelCache = s.modelCache.map((e: Json) => (isReview(e) ? rejectAll(e) : e))));
    // The user's cache lacks the reviewer's responses: before, the forged ones were appended to it.
    const mine = at('mine.jsonl');
    const lines = readFileSync(RESPONSES, 'utf8').trim().split('\n').filter((l) => !isReview(JSON.parse(l)));
    writeFileSync(mine, lines.join('\n') + '\n');
    const before = readFileSync(mine, 'utf8');
    const r = blame(forged, '--cache', mine, '--json');
    expect(r.status).toBe(0);
    expect(readFileSync(mine, 'utf8')).toBe(before);
    expect(r.stderr).not.toMatch(/added from .*session/);
  });

  it('--keep-responses adds them to the first --cache on purpose, and says so', () => {
    const kept = at('kept.jsonl');
    writeFileSync(kept, '');
    const r = blame(at('triage.json'), '--cache', kept, '--keep-responses', '--json');
    expect(r.status).toBe(0);
    const count = readJson(at('triage.json')).modelCache.length;
    expect(r.stderr).toBe(`blame: note: ${kept}: ${count} responses added from the other caches and the session files\n`);
    expect(readFileSync(kept, 'utf8').trim().split('\n')).toHaveLength(count);
    // Without session files to take them from, the flag is a mistake (exit 2).
    expect(refused(blame(TRIAGE, '--cache', RESPONSES, '--offline', '--keep-responses'))).toMatch(/^blame: --keep-responses adds session files' model responses/);
  });

  it("a re-run prefers the user's own responses to a file's forged ones", () => {
    const forged = forge(at('triage.json'), 'poisoned-rerun.json', (s) => (s.modelCache = s.modelCache.map((e: Json) => (isReview(e) ? rejectAll(e) : e))));
    const own = at('own.jsonl');
    copyFileSync(RESPONSES, own);
    const r = blame(forged, '--method', 'exact', '--cache', own, '--offline', '--json');
    expect(r.status).toBe(0);
    expect(values(r.stdout)).toEqual(values(whole.stdout));
    // Nothing of the file was written into the user's cache either.
    expect(readFileSync(own, 'utf8')).toBe(readFileSync(RESPONSES, 'utf8'));
  });
});

describe('a re-run session uses its own responses', () => {
  it('re-analyses with another seed and no model at all', () => {
    const r = blame(at('triage.json'), '--seed', '2', '--json');
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(values(r.stdout)).toEqual(values(whole.stdout));
  });
});

describe('merges refuse forged shards, naming the file and the field', () => {
  it('a shard whose metric range differs', () => {
    const file = forge(at('shard-2.json'), 'range.json', (s) => (s.study.range = [0, 2]));
    expect(refused(blame(at('shard-1.json'), file))).toMatch(/^blame: "[^"]*range\.json": study\.range is \[0, 2\], not \[0, 1\] as in "[^"]*shard-1\.json"/);
  });

  it("a game study whose mark claims another range than its tables'", () => {
    expect(blame(join(ROOT, 'src/cli/fixtures/refund.game.json'), '--save', at('game.json')).status).toBe(0);
    const file = forge(at('game.json'), 'game-range.json', (s) => (s.study.range = [0, 5]));
    expect(refused(blame(file, '--json'))).toMatch(/^blame: "[^"]*game-range\.json": study\.range: \[0, 5\] is not the range of the game tables, \[0, 1\]$/);
  });

  it('a shard whose batch bound differs', () => {
    const file = forge(at('shard-2.json'), 'bound.json', (s) => (s.study.batchBound = 'bernstein'));
    expect(refused(blame(at('shard-1.json'), file))).toMatch(/^blame: "[^"]*bound\.json": study\.batchBound is "bernstein", not "normal" as in "[^"]*shard-1\.json"/);
  });

  it('a result whose Shapley values do not add up to v(all) - v(none)', () => {
    const file = forge(at('shard-2.json'), 'sum.json', (s) => (s.results[0].shapley.review += 0.5));
    expect(refused(blame(at('shard-1.json'), file))).toMatch(/^blame: "[^"]*sum\.json": results\[0\]\.shapley: .*add up to 1\.5.* not v\(all\) - v\(none\) = 1/);
    // The same file alone is refused too: nothing prints a forged result.
    expect(refused(blame(file, '--json'))).toMatch(/sum\.json": results\[0\]\.shapley/);
  });

  it("a result whose values lie outside the metric's range", () => {
    const file = forge(at('shard-2.json'), 'outside.json', (s) => {
      const r = s.results[0];
      r.vAll = 3;
      r.shapley.review += 2;
    });
    expect(refused(blame(at('shard-1.json'), file))).toMatch(/^blame: "[^"]*outside\.json": results\[0\]\.vAll: 3 is outside the metric's range \[0, 1\]/);
  });

  it('two files that answer the same request differently', () => {
    const one = readJson(at('shard-1.json'));
    const taken = one.modelCache.find(isReview);
    const file = forge(at('shard-2.json'), 'conflict.json', (s) => {
      s.modelCache = s.modelCache.filter((e: Json) => e.key !== taken.key);
      s.modelCache.push(rejectAll(taken));
      s.results[0].modelKeys = [...new Set([...s.results[0].modelKeys, taken.key])];
    });
    expect(refused(blame(at('shard-1.json'), file))).toMatch(new RegExp(`^blame: "[^"]*conflict\\.json": modelCache\\[\\d+\\]: a different response for request ${taken.key.slice(0, 12)}.* than "[^"]*shard-1\\.json"`));
  });

  it('two files with the same answer to a request, served under another fingerprint, merge', () => {
    const one = readJson(at('shard-1.json'));
    const taken = one.modelCache.find(isReview);
    const file = forge(at('shard-2.json'), 'fingerprint.json', (s) => {
      s.modelCache = s.modelCache.filter((e: Json) => e.key !== taken.key);
      s.modelCache.push({ ...taken, response: { ...taken.response, served: { model: 'a later snapshot', fingerprint: 'fp_2' } } });
      s.results[0].modelKeys = [...new Set([...s.results[0].modelKeys, taken.key])];
    });
    const merged = blame(at('shard-1.json'), file, '--json');
    expect(merged.stderr).toBe('');
    expect(merged.status).toBe(0);
  });

  it('two --cache files that answer the same request differently', () => {
    const first = at('first.jsonl');
    copyFileSync(RESPONSES, first);
    const lines = readFileSync(RESPONSES, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const second = at('second.jsonl');
    writeFileSync(second, lines.map((e) => JSON.stringify(isReview(e) ? rejectAll(e) : e)).join('\n') + '\n');
    const line = refused(blame(at('shard-1.json'), at('shard-2.json'), '--cache', first, '--cache', second));
    expect(line).toMatch(/^blame: --cache [^ ]*second\.jsonl: a different response for request [0-9a-f]{12}.* than --cache [^ ]*first\.jsonl/);
    expect(readFileSync(first, 'utf8')).toBe(readFileSync(RESPONSES, 'utf8'));
  });

  it('a merged study prints the unsharded result and re-analyses offline to the same values', () => {
    const merged = blame(at('shard-2.json'), at('shard-1.json'), '--json', '--save', at('merged.json'));
    expect(merged.status).toBe(0);
    expect(values(merged.stdout)).toEqual(values(whole.stdout));
    const rerun = blame(at('merged.json'), '--method', 'exact', '--offline', '--json');
    expect(rerun.stderr).toBe('');
    expect(values(rerun.stdout)).toEqual(values(whole.stdout));
  });
});

describe('stored summaries are recomputed from the cases', () => {
  const forged = forge(at('refund.json'), 'summary.json', (s) => {
    const reviewer = s.batch.steps.find((x: Json) => x.step === 'reviewer');
    reviewer.meanShapley = 0.9;
    reviewer.ci = [0.9, 0.9];
    s.batch.failures = 40;
  });

  it('the command prints the batch of the cases, not the stored one', () => {
    const r = blame(forged, '--json');
    expect(r.status).toBe(0);
    expect(r.stdout).toBe(refund.stdout);
    expect(blame(forged).stdout).toBe(blame(at('refund.json')).stdout);
  });

  it('a report written from it, and the session saved from it, carry the recomputed batch', () => {
    expect(blame(forged, '--html', at('summary.html'), '--save', at('summary-saved.json')).status).toBe(0);
    const html = readFileSync(at('summary.html'), 'utf8');
    expect(html).not.toMatch(/\+0\.900/);
    expect(html).toMatch(/\+0\.083/);
    expect(readJson(at('summary-saved.json')).batch).toEqual(readJson(at('refund.json')).batch);
  });

  it('--compare against it compares with the recomputed batch', () => {
    const honest = JSON.parse(blame(REFUND, '--json', '--compare', at('refund.json')).stdout).compare;
    const against = JSON.parse(blame(REFUND, '--json', '--compare', forged).stdout).compare;
    expect(against.comparison).toEqual(honest.comparison);
  });
});

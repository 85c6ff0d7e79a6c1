import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blameSync as blame, expectBadInput } from './testing/run-blame.ts';

const ROOT = join(import.meta.dirname, '../..');
const FIX = join(import.meta.dirname, 'fixtures');
const REFUND = join(ROOT, 'public/demos/refund-policy.trace.json');

function tempFile(name: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'blame-test-'));
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

describe('blame --json on the refund demo', () => {
  const r = blame(REFUND, '--json');
  const out = JSON.parse(r.stdout);

  it('prints one JSON object with the 5/12 values and exits 0', () => {
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    const c = out.cases[0];
    expect(c).toMatchObject({ id: 'refund-q1', method: 'exact', failed: true, vEmpty: 0, vAll: 1, lastTouch: 'reviewer', evaluations: 16, permutations: 0, stopReason: 'exact' });
    expect(c.shapley).toEqual({ planner: 5 / 12, retriever: 5 / 12, writer: 1 / 12, reviewer: 1 / 12 });
    expect(c.fixAlone).toEqual({ planner: 1, retriever: 1, writer: 0, reviewer: 0 });
    expect(c.leaveOneOut).toEqual({ planner: 0, retriever: 0, writer: 0, reviewer: 0 });
    expect(c.ci).toBeUndefined();
  });

  it('has the batch of docs/formats.md, "Command output"', () => {
    expect(out.batch).toMatchObject({ failures: 1, analyzed: 1, unfixable: 0 });
    expect(out.batch.cost).toBe(out.cases[0].cost);
    const planner = out.batch.steps.find((s: { step: string }) => s.step === 'planner');
    expect(planner).toEqual({ step: 'planner', fixAloneRate: 1, meanFixAlone: 1, meanShapley: 5 / 12, ci: [5 / 12, 5 / 12], share: 5 / 12, lastTouch: 0 });
  });

  it('is deterministic', () => {
    expect(blame(REFUND, '--json').stdout).toBe(r.stdout);
  });
});

describe('blame tables and options', () => {
  it('prints readable tables without --json', () => {
    const r = blame(REFUND);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/planner\s+\+1\.000\s+\+0\.000\s+\+0\.417/);
    expect(r.stdout).toMatch(/last step to touch: reviewer/);
    expect(r.stdout).toMatch(/1 case, 1 failure, 1 analysed/);
  });

  it('runs Monte Carlo with intervals that contain the exact values, the same for any worker count', () => {
    const a = blame(REFUND, '--json', '--method', 'mc', '--stop', 'width', '--width', '0.1', '--seed', '7');
    const b = blame(REFUND, '--json', '--method', 'mc', '--stop', 'width', '--width', '0.1', '--seed', '7', '--workers', '2');
    expect(a.status).toBe(0);
    expect(a.stdout).toBe(b.stdout);
    const c = JSON.parse(a.stdout).cases[0];
    expect(c.method).toBe('mc');
    // Four steps: a round's interval updates already cost more than the exact method's 16 values, so
    // sampling finishes with the exact values, whose zero-width intervals contain them too.
    expect(c.stopReason).toBe('exact');
    const exact = { planner: 5 / 12, retriever: 5 / 12, writer: 1 / 12, reviewer: 1 / 12 };
    for (const [step, v] of Object.entries(exact)) {
      expect(c.ci[step][0]).toBeLessThanOrEqual(v);
      expect(c.ci[step][1]).toBeGreaterThanOrEqual(v);
    }
    const sum = Object.values(c.shapley as Record<string, number>).reduce((s, x) => s + x, 0);
    expect(sum).toBeCloseTo(1, 12);
  });

  it('selects the estimator with --estimator and reports queries beside cost', () => {
    const r = blame(REFUND, '--json', '--method', 'mc', '--estimator', 'permutation', '--stop', 'budget', '--budget', '1000', '--max-permutations', '20');
    expect(r.status).toBe(0);
    const c = JSON.parse(r.stdout).cases[0];
    // Under a budget the sampling never asks for every coalition left at once (that could spend any
    // amount): it samples orders until it has seen all 16 coalitions, then answers the exact values.
    // Each order asks for its 3 inner coalitions; v(empty) and v(all) are asked once.
    expect(c).toMatchObject({ estimator: 'permutation', stopReason: 'exact' });
    expect(c.permutations).toBeGreaterThan(0);
    expect(c.permutations).toBeLessThanOrEqual(20);
    expect(c.queries).toBe(2 + 3 * c.permutations);
    // Without a budget, one round's interval updates would cost more than the 16 values: no order
    // is sampled, each coalition is asked for once.
    const unbudgeted = JSON.parse(blame(REFUND, '--json', '--method', 'mc', '--estimator', 'permutation').stdout).cases[0];
    expect(unbudgeted).toMatchObject({ permutations: 0, stopReason: 'exact', queries: 16 });
    const exact = JSON.parse(blame(REFUND, '--json').stdout).cases[0];
    expect(exact.queries).toBe(16);
    expect(exact.estimator).toBeUndefined();
  });

  it('reads --tie-tolerance into the settings it saves, and refuses one outside [0, 1]', () => {
    const saved = join(mkdtempSync(join(tmpdir(), 'blame-tie-')), 'tie.agentblame-session.json');
    expect(blame(REFUND, '--json', '--method', 'mc', '--tie-tolerance', '0.02', '--save', saved).status).toBe(0);
    expect(JSON.parse(readFileSync(saved, 'utf8')).settings.tieTolerance).toBe(0.02);
    expectBadInput(blame(REFUND, '--tie-tolerance', '1.5'), /--tie-tolerance/);
  });

  it('prints pairwise interactions with --interactions, and none without', () => {
    const c = JSON.parse(blame(REFUND, '--json', '--interactions').stdout).cases[0];
    expect(c.interactions).toHaveLength(6);
    const pr = c.interactions.find((x: { steps: string[] }) => x.steps.join() === 'planner,retriever');
    expect(pr.value).toBeCloseTo(-2 / 3, 12);
    expect(JSON.parse(blame(REFUND, '--json').stdout).cases[0].interactions).toBeUndefined();
    expect(blame(REFUND, '--interactions').stdout).toMatch(/strongest pair interactions .*planner×retriever -0\.667/);
  });

  it('analyses a game file', () => {
    const r = blame(join(FIX, 'refund.game.json'), '--json');
    expect(r.status).toBe(0);
    const c = JSON.parse(r.stdout).cases[0];
    expect(c.shapley).toEqual({ planner: 5 / 12, retriever: 5 / 12, writer: 1 / 12, reviewer: 1 / 12 });
    expect(c.lastTouch).toBeNull();
  });

  it('takes a pipeline definition with its own cases, and --pipeline beside a trace', () => {
    const direct = blame(join(ROOT, 'public/demos/refund-policy.pipeline.js'), '--json');
    expect(direct.status).toBe(0);
    expect(JSON.parse(direct.stdout).cases[0].shapley.planner).toBe(5 / 12);
    const trace = JSON.parse(readFileSync(REFUND, 'utf8'));
    delete trace.pipeline;
    const bare = tempFile('bare.trace.json', JSON.stringify(trace));
    const paired = blame(bare, '--pipeline', join(ROOT, 'public/demos/refund-policy-b.pipeline.js'), '--json');
    expect(paired.status).toBe(0);
    expect(JSON.parse(paired.stdout).cases[0].shapley).toEqual({ planner: 1 / 3, retriever: 1 / 3, writer: 0, reviewer: 1 / 3 });
    expectBadInput(blame(bare), /carries no pipeline definition: pass one with --pipeline/);
  });

  it('analyses with another fix chosen by --fix STEP=FIX, and names an unknown fix', () => {
    // The retriever's second fix ("newest on ties") does not repair the answer, so the retriever
    // becomes a null player: v(S) = 1 iff planner in S or both writer and reviewer, giving 2/3, 0, 1/6, 1/6.
    const r = blame(REFUND, '--fix', 'retriever=newest on ties', '--json');
    expect(r.status).toBe(0);
    const c = JSON.parse(r.stdout).cases[0];
    expect(c).toMatchObject({ id: 'refund-q1', failed: true, vEmpty: 0, vAll: 1, lastTouch: 'reviewer' });
    expect(c.shapley.planner).toBeCloseTo(2 / 3, 12);
    expect(c.shapley.retriever).toBe(0);
    expect(c.shapley.writer).toBeCloseTo(1 / 6, 12);
    expect(c.shapley.reviewer).toBeCloseTo(1 / 6, 12);
    expect(c.fixAlone).toEqual({ planner: 1, retriever: 0, writer: 0, reviewer: 0 });
    // Naming the default fix explicitly gives the default analysis.
    expect(JSON.parse(blame(REFUND, '--fix', 'retriever=drop superseded', '--json').stdout).cases[0].shapley).toEqual({ planner: 5 / 12, retriever: 5 / 12, writer: 1 / 12, reviewer: 1 / 12 });
    expectBadInput(blame(REFUND, '--fix', 'retriever=nope', '--json'), /--fix retriever=nope: step "retriever" has no fix "nope" \(fixes: drop superseded, newest on ties\)/);
    expectBadInput(blame(REFUND, '--fix', 'retreiver=drop superseded'), /--fix retreiver=drop superseded: the definition has no step "retreiver" \(steps: planner, retriever, writer, reviewer\)/);
  });

  it('writes a report of a game file that reopens as a game study, and refuses replay options for games', async () => {
    const out = join(mkdtempSync(join(tmpdir(), 'blame-html-')), 'game.html');
    expect(blame(join(FIX, 'refund.game.json'), '--html', out).status).toBe(0);
    const { importSessionText } = await import('../session/session-file.ts');
    const session = importSessionText(readFileSync(out, 'utf8'));
    expect(session.games?.map((g) => g.id)).toEqual(['refund']);
    expect(session.results[0].shapley?.planner).toBe(5 / 12);
    expectBadInput(blame(join(FIX, 'refund.game.json'), '--mode', 'posterior'), /--mode does not apply to a game file/);
    expectBadInput(blame(join(FIX, 'refund.game.json'), '--pipeline', join(ROOT, 'public/demos/refund-policy.pipeline.js')), /--pipeline does not apply to a game file/);
  });

  it('writes the HTML report with --html', () => {
    const out = join(mkdtempSync(join(tmpdir(), 'blame-html-')), 'refund.html');
    const r = blame(REFUND, '--html', out, '--json');
    expect(r.status).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toMatch(/^<!DOCTYPE html>/i);
    expect(html).toContain('0.417');
    expect(html).toContain('date constraint');
  });
});

describe('blame --batch-stop', () => {
  it('stops analysing failures once the top step separates, in case order', () => {
    const args = [join(ROOT, 'public/demos/eight-step-agent.trace.json'), '--json', '--batch-stop', '--batch-bound', 'normal'];
    const r = blame(...args);
    expect(r.status).toBe(0);
    const { cases, batch } = JSON.parse(r.stdout);
    expect(batch.stoppedEarly).toBe(true);
    expect(batch.analyzed).toBeLessThan(400);
    expect(cases.map((c: { id: string }) => c.id)).toEqual(cases.map((_: unknown, i: number) => `agent-${String(i).padStart(3, '0')}`));
    const top = [...batch.steps].sort((a, b) => b.meanShapley - a.meanShapley)[0];
    expect(top.step).toBe('drafter');
    expect(blame(...args, '--workers', '1').stdout).toBe(r.stdout);
  });

  it('reports a Bernstein batch interval at the anytime confidence the stop was decided with', async () => {
    const stopped = JSON.parse(blame(join(FIX, 'dominant.pipeline.js'), '--json', '--batch-stop', '--batch-bound', 'bernstein').stdout);
    expect(stopped.batch.stoppedEarly).toBe(true);
    expect(stopped.batch.analyzed).toBeLessThan(300);
    const { aggregateBatch } = await import('../engine/batch.ts');
    const anytime = aggregateBatch(stopped.cases, { delta: 0.05, bound: 'anytime' });
    const plain = aggregateBatch(stopped.cases, { delta: 0.05, bound: 'bernstein' });
    expect(stopped.batch.steps.map((s: { ci: number[] }) => s.ci)).toEqual(anytime.steps.map((s) => s.ci));
    expect(anytime.steps.map((s) => s.ci)).not.toEqual(plain.steps.map((s) => s.ci));
  });
});

describe('blame --batch-stop bandit', () => {
  it('names the same top step as the plain stop for fewer step runs, with anytime intervals, and saves the rule in the session', () => {
    const trace = join(ROOT, 'public/demos/eight-step-agent.trace.json');
    const plain = JSON.parse(blame(trace, '--json', '--batch-stop', '--batch-bound', 'anytime').stdout);
    const session = join(mkdtempSync(join(tmpdir(), 'blame-bandit-')), 'bandit.json');
    // One worker: every case shares the same step runs, so the count is the same on every machine.
    const r = blame(trace, '--json', '--batch-stop', 'bandit', '--save', session, '--workers', '1');
    expect(r.status).toBe(0);
    const bandit = JSON.parse(r.stdout);
    const top = (batch: { steps: { step: string; meanShapley: number }[] }) => [...batch.steps].sort((a, b) => b.meanShapley - a.meanShapley)[0].step;
    expect(bandit.batch.stoppedEarly).toBe(true);
    expect(top(bandit.batch)).toBe('drafter');
    expect(top(plain.batch)).toBe('drafter');
    expect(bandit.batch.analyzed).toBeLessThan(plain.batch.analyzed);
    expect(bandit.batch.cost).toBeLessThan(plain.batch.cost / 2);
    // More workers share less, but the values and so the stop are the same.
    const spread = JSON.parse(blame(trace, '--json', '--batch-stop', 'bandit', '--workers', '2').stdout);
    expect(spread.batch.steps).toEqual(bandit.batch.steps);
    const saved = JSON.parse(readFileSync(session, 'utf8'));
    expect(saved.study).toMatchObject({ batchStop: true, batchStopRule: 'bandit' });
  });

  it('refuses an unknown rule, naming the flag', () => {
    const r = blame(REFUND, '--batch-stop=fastest');
    expect(r.status).not.toBe(0);
    expect(r.stderr).toMatch(/--batch-stop: unknown rule "fastest" \(rules: top, bandit/);
  });
});

describe('blame on failing cases', () => {
  it('times out a spinning step, names it, finishes the other cases and exits 1', () => {
    const r = blame(join(FIX, 'spin.pipeline.js'), '--json', '--timeout', '1');
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.cases.map((c: { id: string }) => c.id)).toEqual(['ok-1', 'stuck', 'ok-2']);
    // With the compile allowance when it is the first case its worker runs of the definition.
    expect(out.cases[1].error).toMatch(/case "stuck": timed out after (1 s|2 s \(1 s \+ 1 s to compile the definition\)) in step "writer"/);
    expect(out.cases[0].shapley).toBeDefined();
    expect(out.cases[2].shapley).toBeDefined();
    expect(out.batch.failures).toBe(2);
  });

  it('reports a throwing step as that case\'s error', () => {
    const r = blame(join(FIX, 'throws.pipeline.js'), '--json');
    expect(r.status).toBe(1);
    const out = JSON.parse(r.stdout);
    expect(out.cases[1].error).toMatch(/case "broken".*step "lookup".*no such order/);
    expect(out.cases[0].failed).toBe(true);
  });

  it('prints the error in the tables too', () => {
    const r = blame(join(FIX, 'throws.pipeline.js'));
    expect(r.status).toBe(1);
    expect(r.stdout).toMatch(/case broken: ERROR .*no such order/);
  });
});

describe('blame on bad input', () => {
  it('rejects bad arguments with the usage', () => {
    expectBadInput(blame(), /blame: no input file given/);
    expectBadInput(blame(REFUND, '--method', 'fast'), /--method: expected one of exact, mc, auto, got "fast"/);
    expectBadInput(blame(REFUND, '--delta', '2'), /--delta: expected a number strictly between 0 and 1/);
    expectBadInput(blame(REFUND, '--worlds', '0'), /--worlds: expected a whole number/);
    expectBadInput(blame(REFUND, '--bogus'), /unknown option --bogus/);
    expectBadInput(blame(REFUND, '--estimator', 'fast'), /--estimator: expected one of permutation\b.*, got "fast"/);
    expectBadInput(blame(REFUND, '--stop', 'budget'), /--stop budget needs --budget C/);
  });

  it('rejects unreadable and malformed files with one line naming the problem', () => {
    expect(expectBadInput(blame('/nonexistent/trace.json'), /cannot read input file "\/nonexistent\/trace.json": no such file/)).toHaveLength(1);
    expect(expectBadInput(blame(tempFile('bad.json', '{"format": "agentblame-trace", "version": 1, "cases": [')), /invalid JSON at line 1/)).toHaveLength(1);
    expectBadInput(blame(tempFile('v9.json', '{"format": "agentblame-trace", "version": 9, "cases": []}')), /version/);
    expectBadInput(blame(tempFile('x.json', '{"format": "something-else"}')), /this reads: /);
    const dup = { format: 'agentblame-trace', version: 1, pipeline: { name: 'p', source: 'export default {}' }, cases: [{ id: 'a', inputs: {} }, { id: 'a', inputs: {} }] };
    expectBadInput(blame(tempFile('dup.json', JSON.stringify(dup))), /cases\[1\]\.id: .*"a"/);
    const badInputs = { format: 'agentblame-trace', version: 1, cases: [{ id: 'a', inputs: {} }, { id: 'b', inputs: {} }, { id: 'c', inputs: {} }, { id: 'd', inputs: [] }] };
    expectBadInput(blame(tempFile('inputs.json', JSON.stringify(badInputs))), /cases\[3\]\.inputs: expected an object/);
  });

  it('rejects bad game files naming the game and coalition', () => {
    const game = JSON.parse(readFileSync(join(FIX, 'refund.game.json'), 'utf8'));
    const missing = structuredClone(game);
    missing.games[0].values.splice(6, 1);
    expectBadInput(blame(tempFile('m.json', JSON.stringify(missing))), /"refund".*missing coalition \{planner, writer\}/);
    const unknown = structuredClone(game);
    unknown.games[0].values[1].fixed = ['planer'];
    expectBadInput(blame(tempFile('u.json', JSON.stringify(unknown))), /planer/);
    const nonFinite = JSON.stringify(game).replace('"value":0}', '"value":1e999}');
    expect(nonFinite).toContain('1e999');
    expectBadInput(blame(tempFile('n.json', nonFinite)), /finite/);
    const repeated = structuredClone(game);
    repeated.games[0].players.push('writer');
    expectBadInput(blame(tempFile('r.json', JSON.stringify(repeated))), /writer/);
  });

  it('rejects a broken pipeline definition with its line and column', () => {
    const r = blame(tempFile('broken.pipeline.js', 'export default {\n  name: "x",\n  steps: [ { name: "a", \n'));
    expectBadInput(r, /pipeline definition: .*broken\.pipeline\.js:\d+:\d+/);
  });
});

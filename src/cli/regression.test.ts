/**
 * The regression game and its gate from the command (docs/ci.md): the support desk's two versions,
 * two of four steps changed, only the retriever's change breaking cases on its own.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { normalQuantile } from '../engine/stats/normal-quantile.ts';
import { blameSync, expectBadInput, runBlame, type BlameRun } from './testing/run-blame.ts';
import { SUPPORT_DESK_CASES_FILE, supportDeskAfter, supportDeskBefore } from '../regression/testing/support-desk.ts';

const dir = mkdtempSync(join(tmpdir(), 'agentblame-regression-'));
const after = join(dir, 'after.pipeline.js');
const before = join(dir, 'before.pipeline.js');
writeFileSync(after, supportDeskAfter());
writeFileSync(before, supportDeskBefore());

/** A minimal XML reader: elements with their attributes and children, refusing what is not well formed. */
interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  text: string;
}
function readXml(text: string): XmlElement {
  const body = text.replace(/^<\?xml [^?]*\?>\s*/, '');
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack = [root];
  const tag = /<(\/?)([A-Za-z][\w.-]*)((?:\s+[A-Za-z][\w.-]*="[^"<]*")*)\s*(\/?)>|([^<]+)/gy;
  for (let m = tag.exec(body); m !== null; m = tag.exec(body)) {
    if (m[5] !== undefined) {
      expect(m[5]).not.toMatch(/&(?!(amp|lt|gt|quot|apos|#\d+);)/);
      stack[stack.length - 1].text += m[5];
      continue;
    }
    if (m[1]) {
      expect(stack.pop()!.name).toBe(m[2]);
      continue;
    }
    const attributes: Record<string, string> = {};
    for (const a of m[3].matchAll(/([A-Za-z][\w.-]*)="([^"]*)"/g)) {
      expect(a[2]).not.toMatch(/&(?!(amp|lt|gt|quot|apos|#\d+);)/);
      attributes[a[1]] = a[2];
    }
    const element: XmlElement = { name: m[2], attributes, children: [], text: '' };
    stack[stack.length - 1].children.push(element);
    if (!m[4]) stack.push(element);
  }
  expect(tag.lastIndex === 0 || tag.lastIndex === body.length).toBe(true);
  expect(stack).toHaveLength(1);
  expect(root.children.filter((c) => c.name !== '#text')).toHaveLength(1);
  return root.children[0];
}

/** The JUnit schema's required parts: testsuites of testsuite (name, tests, failures) of testcase (name, classname), failure with a message. */
function checkJunit(root: XmlElement): { failed: string[]; passed: string[] } {
  expect(root.name).toBe('testsuites');
  const failed: string[] = [];
  const passed: string[] = [];
  expect(root.children.length).toBeGreaterThan(0);
  let total = 0;
  for (const suite of root.children) {
    expect(suite.name).toBe('testsuite');
    expect(suite.attributes.name).toBeTruthy();
    const cases = suite.children.filter((c) => c.name === 'testcase');
    expect(Number(suite.attributes.tests)).toBe(cases.length);
    const failing = cases.filter((c) => c.children.some((x) => x.name === 'failure'));
    expect(Number(suite.attributes.failures)).toBe(failing.length);
    total += cases.length;
    for (const c of cases) {
      expect(c.attributes.name).toBeTruthy();
      expect(c.attributes.classname).toBeTruthy();
      const failure = c.children.find((x) => x.name === 'failure');
      if (failure) {
        expect(failure.attributes.message).toBeTruthy();
        failed.push(c.attributes.name);
      } else passed.push(c.attributes.name);
    }
  }
  expect(Number(root.attributes.tests)).toBe(total);
  expect(Number(root.attributes.failures)).toBe(failed.length);
  return { failed, passed };
}

describe('the regression game from the command', () => {
  let text: BlameRun;
  let json: BlameRun;
  const summary = join(dir, 'summary.md');
  const junit = join(dir, 'junit.xml');
  const stepSummary = join(dir, 'step-summary.md');
  beforeAll(async () => {
    writeFileSync(stepSummary, 'earlier step output\n');
    [text, json] = await Promise.all([
      runBlame([after, '--against', before, '--cases', SUPPORT_DESK_CASES_FILE, '--gate', '--summary', summary, '--junit', junit], { ...process.env, GITHUB_STEP_SUMMARY: stepSummary }),
      runBlame([after, '--against', before, '--cases', SUPPORT_DESK_CASES_FILE, '--gate', '--json']),
    ]);
  }, 120_000);

  it('blames the retriever, the change that breaks cases, first: exact values by hand', () => {
    expect(json.stderr).toBe('');
    const out = JSON.parse(json.stdout);
    // Each new failure over the two changes (S = the steps reverted; v(S) is 1 when the case passes):
    //   returns-receipt, returns-gift: v({}) = 0, v({retriever}) = 1, v({writer}) = 1 (the earlier writer
    //     picks the newest of the two documents the later retriever returns), v(both) = 1:
    //     retriever = writer = (1 + 0) / 2 = 0.5
    //   warranty-repair: v({writer}) = 0 (the current document is not retrieved at all): retriever = 1, writer = 0
    // Means over the three new failures: retriever 2/3, writer 1/3; shares 2/3 and 1/3; reverting the
    // retriever alone fixes all three, the writer alone two of three.
    expect(out.regression.newFailures.sort()).toEqual(['returns-gift', 'returns-receipt', 'warranty-repair']);
    expect(out.regression.stillFailing).toEqual(['gift-cards']);
    expect(out.regression.fixed).toEqual(['delivery-speed']);
    const [first, second] = out.regression.changes;
    expect(first.step).toBe('retriever');
    expect(first.rise).toBeCloseTo(2 / 3, 12);
    expect(second.step).toBe('writer');
    expect(second.rise).toBeCloseTo(1 / 3, 12);
    expect(first.share).toBeCloseTo(2 / 3, 12);
    expect(first.fixAloneRate).toBe(1);
    expect(second.fixAloneRate).toBeCloseTo(2 / 3, 12);
    // The normal interval over the three cases: both have the values' spread sd = sqrt(1/12).
    const radius = (normalQuantile(1 - 0.05 / 2) * Math.sqrt(1 / 12)) / Math.sqrt(3);
    expect(first.ci[0]).toBeCloseTo(2 / 3 - radius, 12);
    expect(first.ci[1]).toBeCloseTo(2 / 3 + radius, 12);
    // The unchanged steps are players with their own code as the fix: exactly 0 in every case.
    for (const c of out.cases.filter((x: { failed: boolean }) => x.failed)) {
      expect(c.shapley.parse).toBe(0);
      expect(c.shapley.reviewer).toBe(0);
    }
    expect(out.regression.steps).toEqual([
      { step: 'parse', change: 'unchanged' },
      { step: 'retriever', change: 'changed' },
      { step: 'writer', change: 'changed' },
      { step: 'reviewer', change: 'unchanged' },
    ]);
    // 7 cases: 4 fail now, 2 before (gift-cards in both, delivery-speed only before).
    expect(out.regression.failureRate).toMatchObject({ casesNow: 7, failuresNow: 4, failuresBefore: 2, newFailures: 3, fixed: 1, paired: true });
    expect(out.gate).toMatchObject({ regression: true, cause: 'retriever', risen: ['retriever'], failureRateRose: false, threshold: 0.1 });
  });

  it('fails the gate with one verdict line first', () => {
    expect(text.status).toBe(1);
    expect(text.stdout.split('\n')[0]).toMatch(/^regression: \+2 failing cases \[-\d\.\d, \+\d\.\d\] of 7 \(3 new failures, 1 fixed\); caused by "retriever" \(\+0\.67 \[\+0\.34, \+0\.99\]\)$/);
    expect(text.stdout).toContain('the "retriever" change causes 67 % of the new failures; reverting it alone fixes 100 %');
  });

  it('writes a markdown summary (and appends it to $GITHUB_STEP_SUMMARY) and a JUnit report that validate', () => {
    const markdown = readFileSync(summary, 'utf8');
    expect(markdown.split('\n')[0]).toBe('### agentblame: regression');
    expect(markdown).toMatch(/\n\*\*regression\*\*.*caused by \*\*retriever\*\*/);
    const table = markdown.split('\n').filter((l) => l.startsWith('|'));
    expect(table[0]).toBe('| step | change | mean blame of the new failures | interval | share | reverting alone fixes | gate |');
    expect(table[1]).toMatch(/^\| --- \|/);
    // A row per change and one for the failure rate, each with the header's seven cells.
    expect(table.slice(2).map((row) => row.split(/(?<!\\)\|/).length - 2)).toEqual([7, 7, 7]);
    expect(table[2]).toMatch(/^\| retriever \| changed \| \+0\.667 \| .* \| fails: rose above 0\.1 \|$/);
    expect(readFileSync(stepSummary, 'utf8')).toBe(`earlier step output\n${markdown}`);
    const report = checkJunit(readXml(readFileSync(junit, 'utf8')));
    expect(report.failed).toEqual(['step retriever']);
    expect(report.passed).toEqual(['failure rate', 'step writer']);
  });

  it("takes the later definition's own cases when no --cases is given", () => {
    const inline = (source: string) => source.replace('  metric: (outputs, inputs)', `  cases: ${readFileSync(SUPPORT_DESK_CASES_FILE, 'utf8')},\n  metric: (outputs, inputs)`);
    const withCases = join(dir, 'after-with-cases.pipeline.js');
    writeFileSync(withCases, inline(supportDeskAfter()));
    const r = blameSync(withCases, '--against', before, '--gate');
    expect(r.status).toBe(1);
    expect(r.stdout.split('\n')[0]).toBe(text.stdout.split('\n')[0]);
  });

  it('passes the gate when nothing changed', () => {
    const r = blameSync(after, '--against', after, '--cases', SUPPORT_DESK_CASES_FILE, '--gate', '--json');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.regression.changes).toEqual([]);
    expect(out.regression.newFailures).toEqual([]);
    expect(out.gate.regression).toBe(false);
    expect(out.gate.verdict).toMatch(/^no regression: \+0 failing cases/);
  });

  it('gates two studies compared: the failure rate paired by case, each step by its change of mean blame', () => {
    const earlier = join(dir, 'before.agentblame-session.json');
    expect(blameSync(before, '--cases', SUPPORT_DESK_CASES_FILE, '--save', earlier).status).toBe(0);
    const r = blameSync(after, '--cases', SUPPORT_DESK_CASES_FILE, '--compare', earlier, '--gate', '--summary', join(dir, 'compare.md'));
    // 2 failures of 7 before, 4 now: too few cases for the rise to be sure, and the fixture's own
    // fixes change nothing, so no step's blame rose either.
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^no regression: \+2 failing cases \[-\d\.\d, \+\d\.\d\] of 7 \(3 new failures, 1 fixed\); no step's blame rose/);
    expect(readFileSync(join(dir, 'compare.md'), 'utf8')).toContain('| step | mean Shapley before | now | change | interval | gate |');
  });

  it('judges the shards of a game once merged, as the whole game', () => {
    const parts = ['1', '2'].map((part) => {
      const saved = join(dir, `game-${part}.agentblame-session.json`);
      const r = blameSync(after, '--against', before, '--cases', SUPPORT_DESK_CASES_FILE, '--shard', `${part}/2`, '--save', saved);
      expect(r.status, r.stderr).toBe(0);
      return saved;
    });
    const merged = blameSync(...parts, '--gate', '--json');
    expect(merged.status).toBe(1);
    const whole = JSON.parse(json.stdout);
    const out = JSON.parse(merged.stdout);
    expect(out.gate).toEqual(whole.gate);
    expect(out.regression.changes).toEqual(whole.regression.changes);
    expect(out.regression.fixed).toEqual(['delivery-speed']);
    expectBadInput(blameSync(after, '--against', before, '--cases', SUPPORT_DESK_CASES_FILE, '--shard', '1/2', '--gate'), /--gate judges the whole study: save each shard/);
    // A session of an ordinary study holds no change to judge.
    const plain = join(dir, 'plain.agentblame-session.json');
    expect(blameSync(before, '--cases', SUPPORT_DESK_CASES_FILE, '--save', plain).status).toBe(0);
    expectBadInput(blameSync(plain, '--gate'), /--gate judges a change: give --against/);
  });

  it('refuses bad input with exit 2', () => {
    expectBadInput(blameSync(after, '--gate'), /--gate judges a change: give --against/);
    expectBadInput(blameSync(after, '--against', join(dir, 'missing.js'), '--cases', SUPPORT_DESK_CASES_FILE), /cannot read --against ".*missing\.js": no such file/);
    expectBadInput(blameSync(after, '--against', before, '--gate-threshold', '-1'), /--gate-threshold: expected a number at least 0/);
    const badCases = join(dir, 'bad-cases.json');
    writeFileSync(badCases, '[{ "id": "a", "inputs": {} }, { "id": "a", "inputs": {} }]');
    expectBadInput(blameSync(after, '--against', before, '--cases', badCases), /--cases ".*bad-cases\.json": .*\[1\]/);
  });
});

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blameSync as blame } from './testing/run-blame.ts';

const ROOT = join(import.meta.dirname, '../..');
const DEMOS = join(ROOT, 'public/demos');

describe('session files as input, through the importer list the page uses', () => {
  const dir = mkdtempSync(join(tmpdir(), 'blame-opened-'));
  const saved = join(dir, 'refund.agentblame-session.json');
  blame(join(DEMOS, 'refund-policy.trace.json'), '--save', saved);

  it('opens a session file whose format is not its first field, as the page does (sniffing alone missed it)', () => {
    const { format, ...rest } = JSON.parse(readFileSync(saved, 'utf8')) as Record<string, unknown>;
    const reordered = join(dir, 'reordered.json');
    writeFileSync(reordered, JSON.stringify({ ...rest, format }));
    const original = blame(saved, '--json');
    const opened = blame(reordered, '--json');
    expect(opened.stderr).toBe('');
    expect(opened.status).toBe(0);
    expect(JSON.parse(opened.stdout).batch).toEqual(JSON.parse(original.stdout).batch);
  });
});

describe('blame --compare', () => {
  const dir = mkdtempSync(join(tmpdir(), 'blame-compare-'));
  const earlier = join(dir, 'mechanism-a.agentblame-session.json');
  // Mechanism A of the refund pipeline (5/12, 5/12, 1/12, 1/12), then mechanism B (1/3, 1/3, 0, 1/3) beside it.
  blame(join(DEMOS, 'refund-policy.trace.json'), '--save', earlier);

  it('prints the change per step from the earlier session, with ranks, fix-alone rates and the case that moved', () => {
    const r = blame(join(DEMOS, 'refund-policy-b.trace.json'), '--compare', earlier, '--json');
    expect(r.status).toBe(0);
    const { compare } = JSON.parse(r.stdout);
    expect(compare.against).toBe('refund-policy');
    const c = compare.comparison;
    expect(c).toMatchObject({ paired: true, shared: 1, delta: 0.05 });
    const byStep = Object.fromEntries(c.steps.map((s: { step: string }) => [s.step, s]));
    expect(byStep.planner.shapleyChange).toBeCloseTo(1 / 3 - 5 / 12, 12);
    expect(byStep.writer.shapleyChange).toBeCloseTo(-1 / 12, 12);
    expect(byStep.reviewer.shapleyChange).toBeCloseTo(1 / 3 - 1 / 12, 12);
    // One failure on each side, both exact: the interval is the point.
    expect(byStep.reviewer.ci[0]).toBeCloseTo(0.25, 12);
    expect(byStep.reviewer.ci[1]).toBeCloseTo(0.25, 12);
    // Ties share a rank: the reviewer rises from 3 (tied with the writer) to 1 (tied with two others).
    expect([byStep.reviewer.before.rank, byStep.reviewer.after.rank, byStep.reviewer.rankChange]).toEqual([3, 1, 2]);
    expect([byStep.writer.before.rank, byStep.writer.after.rank]).toEqual([3, 4]);
    expect(byStep.reviewer.fixAloneChange).toBe(1);
    expect(c.cases).toHaveLength(1);
    expect(c.cases[0]).toMatchObject({ id: 'refund-q1', step: 'reviewer' });
    // Three steps moved by 1/12 each, the reviewer by 1/4.
    expect(c.cases[0].movement).toBeCloseTo(3 / 12 + 1 / 4, 12);
  });

  it('prints the comparison as tables, and puts it in the report', () => {
    const html = join(dir, 'b.html');
    const r = blame(join(DEMOS, 'refund-policy-b.trace.json'), '--compare', earlier, '--html', html);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('compared with "refund-policy"');
    expect(r.stdout).toMatch(/reviewer\s+\+0\.083\s+\+0\.333\s+\+0\.250/);
    const report = readFileSync(html, 'utf8');
    expect(report).toContain('id="compare"');
    expect(report).toContain('Compared with “refund-policy”');
    expect(report).toContain('Cases whose blame moved most');
  });

  it('refuses a file that is not a session, naming it', () => {
    const r = blame(join(DEMOS, 'refund-policy-b.trace.json'), '--compare', join(DEMOS, 'refund-policy.trace.json'));
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^blame: --compare ".*refund-policy\.trace\.json": expected a session file/);
  });
});

describe('blame --compare across pipelines', () => {
  const dir = mkdtempSync(join(tmpdir(), 'blame-compare-apart-'));
  const earlier = join(dir, 'refund.agentblame-session.json');
  blame(join(DEMOS, 'refund-policy.trace.json'), '--save', earlier);

  it('says the studies share no step (and counts one failure in the singular)', () => {
    const r = blame(join(DEMOS, 'stochastic-rag.trace.json'), '--compare', earlier);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('compared with "refund-policy": 1 analysed failure before, 160 now, 0 in both;');
    expect(r.stdout).toContain("no step in common (other pipelines?), so no step's blame can be compared: compare with a session of the same pipeline");
    const same = blame(join(DEMOS, 'refund-policy-b.trace.json'), '--compare', earlier);
    expect(same.stdout).not.toContain('no step in common');
  });
});

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { computeTrends } from '../engine/trends.ts';
import { blamedFailures } from '../engine/testing/trend-results.ts';
import { exportSessionFile } from '../session/session-file.ts';
import { studyFingerprint } from '../session/study-fingerprint.ts';
import { sessionTrendDigest } from '../session/trend-digest.ts';
import { plantedDriftSessions, trendSession } from '../session/testing/trend-sessions.ts';
import { runBlame } from './testing/run-blame.ts';
import { trendMain } from './trend-command.ts';

function run(...argv: string[]): { status: number; stdout: string; stderr: string } {
  let stdout = '';
  let stderr = '';
  const status = trendMain(argv, (t) => (stdout += t), (t) => (stderr += t));
  return { status, stdout, stderr };
}

let root: string;
let drift: string;
let cache: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'agentblame-trend-'));
  drift = join(root, 'drift');
  cache = join(root, 'cache');
  mkdirSync(join(drift, 'nested'), { recursive: true });
  plantedDriftSessions().forEach((s, k) => writeFileSync(join(drift, k % 2 ? 'nested' : '', `${s.id}.agentblame-session.json`), exportSessionFile(s)));
  // A folder's other files are skipped, not refused.
  writeFileSync(join(drift, 'notes.json'), '{"not": "a session"}');
});

describe('agentblame trend', () => {
  it('finds the planted drift in a folder of sessions and marks only the steps that moved', () => {
    const r = run(drift, '--json', '--digest-cache', cache);
    expect(r.status).toBe(0);
    expect(r.stderr).toMatch(/1 file in the folders is not a session, skipped/);
    const { pipeline, trends } = JSON.parse(r.stdout);
    expect(pipeline).toBe('refund-policy');
    expect(trends.periods).toHaveLength(10);
    expect(trends.drifting).toEqual(['retriever', 'writer']);
    const planner = trends.steps.find((s: { step: string }) => s.step === 'planner');
    expect(planner.drift.marked).toBe(false);
    expect(planner.changes.some((c: { marked: boolean }) => c.marked)).toBe(false);
  });

  it('prints the numbers of the one engine function over the sessions\u2019 own digests (what the page computes)', () => {
    const expected = computeTrends(plantedDriftSessions().map(sessionTrendDigest), { grouping: { by: 'week' } });
    expect(JSON.parse(run(drift, '--json', '--no-digest-cache').stdout).trends).toEqual(JSON.parse(JSON.stringify(expected)));
    const text = run(drift, '--no-digest-cache').stdout;
    expect(text).toContain(expected.headline!);
    expect(text).toMatch(/retriever: \+40 pts \[\d+, \d+\] from 2026-01-05 to 2026-03-09 ▲/);
    expect(text).toMatch(/planner: \+0 pts \[-\d+, \d+\] from 2026-01-05 to 2026-03-09 \(within noise\)/);
  });

  it('reads digests from its cache on the second run, and recomputes a damaged cache file', () => {
    const dir = join(root, 'cache-2');
    expect(run(drift, '--json', '--digest-cache', dir).status).toBe(0);
    const files = readdirSync(dir).filter((f) => !f.startsWith('stat-'));
    expect(files).toHaveLength(21);
    // One record per file of its size, modification time and digest key: a second run reads no session.
    expect(readdirSync(dir).filter((f) => f.startsWith('stat-'))).toHaveLength(21);
    const first = run(drift, '--json', '--digest-cache', dir).stdout;
    // Damage one: a cut file, another a digest whose columns disagree.
    writeFileSync(join(dir, files[0]), readFileSync(join(dir, files[0]), 'utf8').slice(0, 50));
    const other = JSON.parse(readFileSync(join(dir, files[1]), 'utf8'));
    if (other.digest) other.digest.mass.push(1);
    writeFileSync(join(dir, files[1]), JSON.stringify(other));
    expect(run(drift, '--json', '--digest-cache', dir).stdout).toBe(first);
  });

  it('never reads a file\u2019s own summary: a forged batch changes nothing', () => {
    const session = plantedDriftSessions()[0];
    const dir = join(root, 'forged');
    mkdirSync(dir);
    const honest = join(dir, 'a.agentblame-session.json');
    writeFileSync(honest, exportSessionFile(session));
    const forgedFile = join(dir, 'b.agentblame-session.json');
    const forged = JSON.parse(exportSessionFile(session));
    forged.batch = { failures: 100, analyzed: 100, unfixable: 0, cost: 0, steps: [{ step: 'planner', fixAloneRate: 1, meanFixAlone: 1, meanShapley: 1, ci: [1, 1], share: 1, lastTouch: 100 }] };
    writeFileSync(forgedFile, JSON.stringify(forged));
    expect(JSON.parse(run(forgedFile, '--json', '--digest-cache', cache).stdout).trends).toEqual(JSON.parse(run(honest, '--json', '--digest-cache', cache).stdout).trends);
  });

  it('joins the shards of one study into one study', () => {
    const results = blamedFailures('s', 40, { retriever: 10, planner: 10 });
    const whole = trendSession('study', '2026-02-02T09:00:00.000Z', results);
    const fingerprint = studyFingerprint(whole);
    const dir = join(root, 'shards');
    mkdirSync(dir);
    [1, 2].forEach((index) => {
      const part = { ...whole, results: results.filter((_, k) => k % 2 === index - 1), study: { fingerprint, shard: { index, count: 2 } } };
      writeFileSync(join(dir, `part${index}.agentblame-session.json`), exportSessionFile(part));
    });
    const { trends } = JSON.parse(run(dir, '--json', '--no-digest-cache').stdout);
    expect(trends.periods).toEqual([expect.objectContaining({ analyzed: 40, studies: ['study'] })]);
    expect(trends.steps.find((s: { step: string }) => s.step === 'retriever').points[0].share).toBe(0.25);
  });

  it('groups by tag value and by version, and keeps one pipeline', () => {
    const dir = join(root, 'tags');
    mkdirSync(dir);
    const other = { name: 'triage', source: 'export default { name: "triage", steps: [] }' };
    const sessions = [
      trendSession('a', '2026-02-02T09:00:00.000Z', blamedFailures('a', 20, { retriever: 5 }), { tags: ['model=gpt-4.1', 'prod'], pipelineVersion: 'v1' }),
      trendSession('b', '2026-02-03T09:00:00.000Z', blamedFailures('b', 20, { retriever: 15 }), { tags: ['model=gpt-4o'], pipelineVersion: 'v2' }),
      trendSession('c', '2026-02-04T09:00:00.000Z', blamedFailures('c', 20, { retriever: 1 }), {}, other),
    ];
    for (const s of sessions) writeFileSync(join(dir, `${s.id}.agentblame-session.json`), exportSessionFile(s));
    const several = run(dir, '--no-digest-cache');
    expect(several.status).toBe(2);
    expect(several.stderr).toMatch(/studies of 2 pipelines \("refund-policy", "triage"\): choose one with --name/);
    const byModel = JSON.parse(run(dir, '--name', 'refund-policy', '--by', 'tag:model', '--json', '--no-digest-cache').stdout).trends;
    expect(byModel.periods.map((p: { label: string }) => p.label)).toEqual(['model=gpt-4.1', 'model=gpt-4o']);
    const byVersion = JSON.parse(run(dir, '--name', 'refund-policy', '--by', 'version', '--json', '--no-digest-cache').stdout).trends;
    expect(byVersion.periods.map((p: { label: string }) => p.label)).toEqual(['version v1', 'version v2']);
    const prodOnly = JSON.parse(run(dir, '--tag', 'prod', '--json', '--no-digest-cache').stdout).trends;
    expect(prodOnly.periods.flatMap((p: { studies: string[] }) => p.studies)).toEqual(['a']);
  });

  it('writes a markdown summary and a self-contained HTML page with the chart', () => {
    const summary = run(drift, '--summary', '--no-digest-cache').stdout;
    expect(summary).toMatch(/^### Trends of refund-policy/);
    expect(summary).toMatch(/\| week of 2026-01-05 \| 2 \| 200 \| 30 % \\\[\d+, \d+\\\] alone 30 % \| 20 % \\\[\d+, \d+\\\] alone 20 % \|/);
    expect(summary).toMatch(/Changed from first to last period: retriever \+40 pts/);
    const html = join(root, 'trends.html');
    expect(run(drift, '--html', html, '--no-digest-cache').status).toBe(0);
    const page = readFileSync(html, 'utf8');
    expect(page).toContain('<svg class="chart trend"');
    expect(page).toContain("default-src 'none'");
    expect(page).not.toContain('<script');
    expect(page).toContain('retriever (drifts)');
  });

  it('refuses bad input with one line naming the flag or the file', () => {
    expect(run(drift, '--by', 'fortnight').stderr).toMatch(/^blame: --by: expected one of day, week, month, version, tag:KEY, got "fortnight"/);
    const notSession = join(drift, 'notes.json');
    const r = run(notSession, '--no-digest-cache');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/notes\.json" is not a session file/);
    const bad = join(root, 'bad.agentblame-session.json');
    const file = JSON.parse(exportSessionFile(plantedDriftSessions()[0]));
    file.meta.tags = ['a', 'a=b'];
    writeFileSync(bad, JSON.stringify(file));
    expect(run(bad, '--no-digest-cache').stderr).toMatch(/bad\.agentblame-session\.json": meta\.tags\[1\]: a second tag with the key "a"/);
    expect(run('--json').stderr).toMatch(/give session files/);
  });

  it('runs as `agentblame trend` from the command line', async () => {
    const r = await runBlame(['trend', drift, '--no-digest-cache']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^refund-policy: 20 studies in 10 periods \(by week\)/);
  });
});

describe('study metadata flags of a saved session', () => {
  it('keeps --recorded-at, --pipeline-version and --tag in the session file, else the input file\u2019s date', async () => {
    const { parseSessionFile } = await import('../session/session-file.ts');
    const dir = mkdtempSync(join(tmpdir(), 'agentblame-meta-'));
    const trace = join(import.meta.dirname, '../../public/demos/refund-policy.trace.json');
    const saved = join(dir, 'a.agentblame-session.json');
    const r = await runBlame([trace, '--save', saved, '--recorded-at', '2026-03-02T09:00:00+01:00', '--pipeline-version', 'v7', '--tag', 'prod', '--tag', 'model=gpt-4.1', '--json']);
    expect(r.status).toBe(0);
    expect(parseSessionFile(readFileSync(saved, 'utf8')).meta).toEqual({ version: 1, recordedAt: '2026-03-02T08:00:00.000Z', recordedFrom: 'given', pipelineVersion: 'v7', tags: ['prod', 'model=gpt-4.1'] });
    // Printing the stored session again with another tag re-tags it, keeping the rest.
    const retagged = join(dir, 'b.agentblame-session.json');
    expect((await runBlame([saved, '--save', retagged, '--tag', 'staging'])).status).toBe(0);
    expect(parseSessionFile(readFileSync(retagged, 'utf8')).meta).toMatchObject({ recordedAt: '2026-03-02T08:00:00.000Z', pipelineVersion: 'v7', tags: ['staging'] });
    const plain = join(dir, 'c.agentblame-session.json');
    expect((await runBlame([trace, '--save', plain])).status).toBe(0);
    expect(parseSessionFile(readFileSync(plain, 'utf8')).meta).toMatchObject({ recordedFrom: 'file', tags: [] });
    const bad = await runBlame([trace, '--tag', 'model=a', '--tag', 'model=b']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^blame: --tag "model=b": a second tag with the key "model"/);
    expect((await runBlame([trace, '--recorded-at', 'yesterday'])).stderr).toMatch(/^blame: --recorded-at: expected an ISO date-time/);
  }, 60_000);
});

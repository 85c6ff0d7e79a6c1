/**
 * The CI examples of docs/ci.md run locally: docs/examples/ci/regression-gate.sh in a throwaway git
 * repository holding the support desk's earlier version on its base commit and the later one in its
 * working tree, with this checkout's command (no network, no package install). The workflow files
 * may only call the script's subcommands that run here.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUPPORT_DESK_CASES_FILE, supportDeskAfter, supportDeskBefore } from '../regression/testing/support-desk.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const EXAMPLES = join(ROOT, 'docs', 'examples', 'ci');
const SCRIPT = join(EXAMPLES, 'regression-gate.sh');

function repository(): string {
  const dir = mkdtempSync(join(tmpdir(), 'agentblame-ci-'));
  const git = (...args: string[]) => {
    const r = spawnSync('git', ['-c', 'user.name=ci', '-c', 'user.email=ci@example.org', '-c', 'init.defaultBranch=main', ...args], { cwd: dir, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
  };
  mkdirSync(join(dir, 'pipelines'));
  mkdirSync(join(dir, 'eval'));
  writeFileSync(join(dir, 'pipelines', 'support.pipeline.js'), supportDeskBefore());
  copyFileSync(SUPPORT_DESK_CASES_FILE, join(dir, 'eval', 'cases.json'));
  git('init', '-q');
  git('add', '.');
  git('commit', '-qm', 'base');
  // The pull request's change, not committed: the base commit keeps the earlier version.
  writeFileSync(join(dir, 'pipelines', 'support.pipeline.js'), supportDeskAfter());
  return dir;
}

function gate(dir: string, ...args: string[]) {
  return spawnSync('sh', [SCRIPT, ...args], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 180_000,
    env: { ...process.env, GITHUB_STEP_SUMMARY: '', PIPELINE: 'pipelines/support.pipeline.js', CASES: 'eval/cases.json', BASE_REF: 'HEAD', AGENTBLAME: `${process.execPath} ${join(ROOT, 'src', 'cli', 'blame.mjs')}` },
  });
}

describe('the CI examples', () => {
  it('run the regression game from the base commit, fail the gate, and leave the summary, JUnit and HTML reports', () => {
    const dir = repository();
    expect(gate(dir, 'before').status).toBe(0);
    expect(readFileSync(join(dir, 'agentblame-out', 'before.pipeline.js'), 'utf8')).toBe(supportDeskBefore());
    const game = gate(dir, 'game');
    expect(game.status).toBe(1);
    expect(game.stdout.split('\n')[0]).toMatch(/^regression: .* caused by "retriever"/);
    expect(readFileSync(join(dir, 'agentblame-out', 'summary.md'), 'utf8')).toMatch(/^### agentblame: regression\n/);
    expect(readFileSync(join(dir, 'agentblame-out', 'junit.xml'), 'utf8')).toContain('<testcase name="step retriever" classname="agentblame.steps">\n      <failure message=');
    expect(readFileSync(join(dir, 'agentblame-out', 'report.html'), 'utf8')).toMatch(/^<!doctype html>/i);
    // The cache file the jobs keep between runs exists (read only: the demo calls no model).
    expect(existsSync(join(dir, '.agentblame', 'responses.jsonl'))).toBe(true);
  }, 120_000);

  it('shard the game, merge the parts with their caches and gate the merged study: the same verdict as one job', () => {
    const dir = repository();
    expect(gate(dir, 'before').status).toBe(0);
    for (const part of ['1', '2']) {
      const r = gate(dir, 'shard', part, '2');
      expect(r.status, r.stderr).toBe(0);
      expect(existsSync(join(dir, 'agentblame-out', `responses-${part}.jsonl`))).toBe(true);
    }
    const merged = gate(dir, 'merge-gate');
    expect(merged.status, merged.stderr).toBe(1);
    expect(merged.stdout.split('\n')[0]).toMatch(/^regression: \+2 failing cases \[-1\.5, \+4\.5\] of 7 \(3 new failures, 1 fixed\); caused by "retriever" \(\+0\.67 \[\+0\.34, \+0\.99\]\)$/);
    expect(readFileSync(join(dir, 'agentblame-out', 'summary.md'), 'utf8')).toMatch(/^### agentblame: regression\n/);
    expect(existsSync(join(dir, 'agentblame-out', 'report.html'))).toBe(true);
  }, 180_000);

  it('call only the subcommands tested here, with the settings the script reads', () => {
    const script = readFileSync(SCRIPT, 'utf8');
    for (const file of ['github-actions.yml', 'gitlab-ci.yml']) {
      const text = readFileSync(join(EXAMPLES, file), 'utf8');
      const calls = [...text.matchAll(/sh regression-gate\.sh (\S+)/g)].map((m) => m[1]);
      expect(new Set(calls), file).toEqual(new Set(['before', 'game', 'shard', 'merge-gate']));
      for (const setting of ['PIPELINE', 'CASES', 'CACHE', 'OUT']) expect(text, `${file} sets ${setting}`).toMatch(new RegExp(`\\b${setting}: `));
      // The model responses are cached between runs under a key made from the lockfile.
      expect(text).toMatch(/package-lock\.json/);
      expect(text).toContain('.agentblame');
    }
    for (const name of ['PIPELINE', 'CASES', 'BASE_REF', 'OUT', 'CACHE', 'AGENTBLAME']) expect(script).toContain(`${name}="\${${name}:`);
  });
});

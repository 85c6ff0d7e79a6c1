/** Results files, shards and merges through the command (docs/shards.md). */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { blameSync as blame, scratchFiles } from './testing/run-blame.ts';

const ROOT = join(import.meta.dirname, '../..');
const BLAME = join(ROOT, 'src/cli/blame.mjs');
const RAG = join(ROOT, 'public/demos/stochastic-rag.trace.json');
const REFUND = join(ROOT, 'public/demos/refund-policy.trace.json');
const at = scratchFiles('blame-shards-');

/** Bad input: exit 2, nothing on stdout, one line on stderr (a usage error adds the usage after it); returns that line. */
function refused(r: ReturnType<typeof blame>, usage = false): string {
  expect(r.status).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.trimEnd().split('\n');
  if (usage) expect(lines[1]).toMatch(/^usage:/);
  else expect(lines).toHaveLength(1);
  return lines[0];
}

describe('the RAG demo in posterior mode, sharded three ways and merged', () => {
  const study = [RAG, '--mode', 'posterior', '--json'];
  const whole = blame(...study, '--save', at('whole.json'));
  const shards = [1, 2, 3].map((i) => blame(...study, '--shard', `${i}/3`, '--save', at(`shard-${i}.json`)));
  const merged = blame(at('shard-3.json'), at('shard-1.json'), at('shard-2.json'), '--json', '--save', at('merged.json'));

  it('each shard analyses its cases: positions j with j mod 3 = i - 1', () => {
    expect(whole.status).toBe(0);
    const all = JSON.parse(whole.stdout).cases.map((c: { id: string }) => c.id);
    shards.forEach((r, k) => {
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout).cases.map((c: { id: string }) => c.id)).toEqual(all.filter((_: string, j: number) => j % 3 === k));
    });
  });

  it('merges into the very output of the unsharded run, cases and batch to the last bit', () => {
    expect(merged.status).toBe(0);
    expect(merged.stderr).toBe('');
    expect(merged.stdout).toBe(whole.stdout);
  });

  it('the merged session file holds the same results and batch as the unsharded one', () => {
    const a = JSON.parse(readFileSync(at('whole.json'), 'utf8'));
    const b = JSON.parse(readFileSync(at('merged.json'), 'utf8'));
    expect(b.results).toEqual(a.results);
    expect(b.batch).toEqual(a.batch);
    expect(b.study.fingerprint).toBe(a.study.fingerprint);
  });

  it('refuses a shard of other settings, naming the file and the setting', () => {
    expect(blame(RAG, '--mode', 'posterior', '--worlds', '3', '--shard', '2/3', '--save', at('other.json')).status).toBe(0);
    expect(refused(blame(at('shard-1.json'), at('other.json'), at('shard-3.json')))).toMatch(/"[^"]*other\.json" is not the same study as "[^"]*shard-1\.json": other settings: worlds 3, not 8/);
  });

  it('refuses a duplicate shard', () => {
    expect(refused(blame(at('shard-1.json'), at('shard-2.json'), at('shard-2.json')))).toMatch(/shard-2\.json" is shard 2\/3 again/);
  });

  it('refuses a missing shard, and --allow-partial merges the rest and says what is missing', () => {
    expect(refused(blame(at('shard-1.json'), at('shard-3.json')))).toMatch(/missing shard 2\/3: 67 of 200 cases have no result/);
    const partial = blame(at('shard-1.json'), at('shard-3.json'), '--allow-partial', '--json');
    expect(partial.status).toBe(0);
    expect(partial.stderr).toMatch(/^blame: note: partial merge: missing shard 2\/3/);
    expect(JSON.parse(partial.stdout).cases).toHaveLength(133);
  });

  it('a shard killed mid-run leaves no file, and re-run alone it merges as before', async () => {
    const killedPath = at('killed-2.json');
    // Many more worlds than the study, so the shard is still running when it is killed (on an idle
    // machine the study's own shard can finish within the 800 ms); its re-run is the study's.
    const child = spawn(process.execPath, [BLAME, ...study, '--worlds', '5000', '--shard', '2/3', '--save', killedPath], { cwd: ROOT, stdio: 'ignore' });
    // Listened for from the start: a child that ended before the kill would otherwise hang the test.
    const exited = new Promise((resolve) => child.once('exit', resolve));
    await new Promise((resolve) => setTimeout(resolve, 800));
    expect(child.exitCode).toBe(null);
    child.kill('SIGKILL');
    await exited;
    expect(existsSync(killedPath)).toBe(false);
    expect(blame(...study, '--shard', '2/3', '--save', killedPath).status).toBe(0);
    expect(blame(at('shard-1.json'), killedPath, at('shard-3.json'), '--json').stdout).toBe(whole.stdout);
  });
});

describe('session files and reports as input', () => {
  const run = blame(REFUND, '--json', '--save', at('refund.json'), '--html', at('refund.html'));

  it('prints a session file as stored, and a report the same way', () => {
    expect(run.status).toBe(0);
    expect(blame(at('refund.json'), '--json').stdout).toBe(run.stdout);
    expect(blame(at('refund.html'), '--json').stdout).toBe(run.stdout);
  });

  it('prints tables for a stored session as for a run', () => {
    expect(blame(at('refund.json')).stdout).toBe(blame(REFUND).stdout);
  });

  it('re-runs a stored study with other settings when its inputs are in it', () => {
    const rerun = blame(at('refund.json'), '--method', 'mc', '--seed', '3', '--json');
    expect(rerun.status).toBe(0);
    expect(rerun.stdout).toBe(blame(REFUND, '--method', 'mc', '--seed', '3', '--json').stdout);
  });

  it('refuses a trace among session files to merge', () => {
    expect(refused(blame(at('refund.json'), REFUND))).toMatch(/refund-policy\.trace\.json" is not a session file/);
  });
});

describe('--shard', () => {
  it('refuses a bad value and batch stopping (exit 2)', () => {
    for (const bad of ['0/3', '4/3', '1/0', 'x', '1/3/2']) expect(refused(blame(REFUND, '--shard', bad), true)).toMatch(/--shard: expected I\/K/);
    expect(refused(blame(REFUND, '--shard', '1/2', '--batch-stop'), true)).toMatch(/--batch-stop needs the whole stream/);
  });
});

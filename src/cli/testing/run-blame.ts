import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');

/** What one run of the command printed, and how it exited. */
export interface BlameRun {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `npm run blame` as a user would (a process of its own, from the project's root). */
export function runBlame(args: readonly string[], env?: NodeJS.ProcessEnv): Promise<BlameRun> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'src/cli/blame.mjs'), ...args], { cwd: ROOT, ...(env && { env }) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

/** Runs the command and waits for it (at most three minutes; output up to 256 MiB, as a large inspection prints). */
export function blameSync(...args: string[]): BlameRun {
  const r = spawnSync(process.execPath, [join(ROOT, 'src/cli/blame.mjs'), ...args], { cwd: ROOT, encoding: 'utf8', timeout: 180_000, maxBuffer: 256 * 1024 * 1024 });
  return { status: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** A bad input: exit 2, nothing on stdout, and a first line on stderr matching `expected`; returns stderr's lines. */
export function expectBadInput(r: BlameRun, expected: string | RegExp): string[] {
  expect(r.status).toBe(2);
  expect(r.stdout).toBe('');
  const lines = r.stderr.trimEnd().split('\n');
  expect(lines[0]).toMatch(expected);
  return lines;
}

/** A fresh temporary folder for a test file's outputs: the path of a file named `name` in it. */
export function scratchFiles(prefix: string): (name: string) => string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return (name) => join(dir, name);
}

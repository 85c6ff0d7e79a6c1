import { spawn } from 'node:child_process';
import { join } from 'node:path';

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

/**
 * The installable command (docs/cli.md, "Installing the command"): `npm pack` bundles it, the
 * package installs into an empty project with no dependencies (offline: it has none to fetch), and
 * `npx agentblame` there does what `npm run blame` does: a demo, a replay with the stand-in model,
 * shards and a merge.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { useFakeEndpoints } from '../model/testing/use-fake-endpoints.ts';
import { scriptedModel } from '../replay/testing/runs.ts';
import { blameSync, type BlameRun } from './testing/run-blame.ts';

const ROOT = join(import.meta.dirname, '../..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';

let dir: string;
let app: string;
let packed: { filename: string; files: { path: string }[] };

/** Runs the installed command in the project, as a user would (`npx agentblame ...`; after `--`, so npx keeps none of the flags). */
function agentblame(...args: string[]): Promise<BlameRun> {
  return new Promise((resolve) => {
    const child = spawn('npx', ['--no', '--', 'agentblame', ...args], { cwd: app });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (status) => resolve({ status, stdout, stderr }));
  });
}

function npm(args: string[], cwd: string): string {
  const r = spawnSync(NPM, args, { cwd, encoding: 'utf8', timeout: 300_000 });
  if (r.status !== 0) throw new Error(`npm ${args.join(' ')} failed (${r.status}): ${r.stderr}`);
  return r.stdout;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'agentblame-pack-'));
  // --json: the file name and the files packed (prepack's build prints before it on stdout).
  const out = npm(['pack', '--pack-destination', dir, '--json', '--silent'], ROOT);
  packed = (JSON.parse(out.slice(out.indexOf('['))) as (typeof packed)[])[0];
  app = join(dir, 'app');
  mkdirSync(app);
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'uses-agentblame', private: true }));
  npm(['install', '--save-dev', '--offline', '--no-audit', '--no-fund', join(dir, packed.filename)], app);
  for (const file of ['public/demos/stochastic-rag.trace.json', 'docs/examples/replay/multiply.langfuse.json', 'docs/examples/replay/tools.js']) copyFileSync(join(ROOT, file), join(app, file.split('/').pop()!));
}, 600_000);

describe('the packed command', () => {
  it('ships the bundled command and its worker, nothing of the sources, no dependencies, and cannot be published', () => {
    expect(packed.files.map((f) => f.path).sort()).toEqual(['README.md', 'dist-command/agentblame.mjs', 'dist-command/analysis-worker.mjs', 'docs/cli.md', 'package.json', 'workers/analysis.process.mjs']);
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules/agentblame/package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.bin).toEqual({ agentblame: 'dist-command/agentblame.mjs' });
    expect(manifest.dependencies).toBeUndefined();
    // npm refuses to publish a private package: publishing is not part of this.
    expect(manifest.private).toBe(true);
    // Only the command was installed: no Vite, Svelte, Playwright or anything else.
    expect(readdirSync(join(app, 'node_modules')).filter((f) => !f.startsWith('.'))).toEqual(['agentblame']);
  });

  it('answers --version and --help', async () => {
    const version = await agentblame('--version');
    expect(version).toEqual({ status: 0, stdout: `agentblame ${JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version}\n`, stderr: '' });
    const help = await agentblame('help', 'replay');
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('--expect TEXT|/REGEX/');
  });

  it('blames a demo exactly as npm run blame does, and merges its shards into the same result', async () => {
    const fromClone = blameSync(join(ROOT, 'public/demos/stochastic-rag.trace.json'), '--json');
    expect(fromClone.status).toBe(0);
    const installed = await agentblame('stochastic-rag.trace.json', '--json');
    expect(installed.stderr).toBe('');
    expect(installed.status).toBe(0);
    expect(JSON.parse(installed.stdout)).toEqual(JSON.parse(fromClone.stdout));

    for (const shard of ['1/2', '2/2']) {
      const r = await agentblame('stochastic-rag.trace.json', '--shard', shard, '--save', `shard-${shard[0]}.json`);
      expect(r.status, r.stderr).toBe(0);
    }
    const merged = await agentblame('merge', 'shard-1.json', 'shard-2.json', '--json');
    expect(merged.status, merged.stderr).toBe(0);
    expect(JSON.parse(merged.stdout).batch).toEqual(JSON.parse(fromClone.stdout).batch);
  });

  describe('replays a recorded run with the stand-in model', () => {
    const startFake = useFakeEndpoints();

    it("blames the calculator, as the README's worked example shows", async () => {
      const endpoint = await startFake({ answer: scriptedModel, models: ['gpt-test', 'fake-model'] });
      const r = await agentblame('replay', 'multiply.langfuse.json', '--expect', '42', '--tools', 'tools.js', '--model-url', endpoint.url);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toContain('4 Calculator     +1.000       +1.000   +1.000');
      expect(r.stdout).toContain('model: 5 requests sent, 0 from the cache');
    });
  });
});

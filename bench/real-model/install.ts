/**
 * Where the real-model suite finds node-llama-cpp and the GGUF: node-llama-cpp 3.21.1 is installed
 * on demand under ~/.cache/agentblame/real-model (about 730 MB with its prebuilt binaries, so never
 * a dependency of the project), and the model is ../shared/models/stories260K.gguf beside the repo.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const NODE_LLAMA_CPP_VERSION = '3.21.1';
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** The folder node-llama-cpp is installed in (AGENTBLAME_REAL_MODEL_DIR overrides it). */
export function moduleDir(env: NodeJS.ProcessEnv = process.env): string {
  return env.AGENTBLAME_REAL_MODEL_DIR ?? join(homedir(), '.cache', 'agentblame', 'real-model');
}

/** The GGUF served (REAL_MODEL_GGUF overrides it). */
export function modelPath(env: NodeJS.ProcessEnv = process.env): string {
  return env.REAL_MODEL_GGUF ?? resolve(REPO_ROOT, '..', 'shared', 'models', 'stories260K.gguf');
}

function installedVersion(dir: string): string | null {
  const file = join(dir, 'node_modules', 'node-llama-cpp', 'package.json');
  if (!existsSync(file)) return null;
  return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? null;
}

/** Install node-llama-cpp into `dir` unless that version is there; the error names what failed. */
export function ensureNodeLlamaCpp(dir: string): { installed: boolean; seconds: number } {
  if (installedVersion(dir) === NODE_LLAMA_CPP_VERSION) return { installed: false, seconds: 0 };
  mkdirSync(dir, { recursive: true });
  const started = Date.now();
  // --ignore-scripts: the prebuilt binaries come as optional packages; never build llama.cpp from source here.
  const run = spawnSync('npm', ['install', '--prefix', dir, '--no-audit', '--no-fund', '--ignore-scripts', '-E', `node-llama-cpp@${NODE_LLAMA_CPP_VERSION}`], { stdio: 'inherit' });
  if (run.status !== 0 || installedVersion(dir) !== NODE_LLAMA_CPP_VERSION) throw new Error(`npm install --prefix ${dir} node-llama-cpp@${NODE_LLAMA_CPP_VERSION} failed (exit ${run.status})`);
  return { installed: true, seconds: (Date.now() - started) / 1000 };
}

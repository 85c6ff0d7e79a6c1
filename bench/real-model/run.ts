/**
 * `npm run test:real-model`: the model-step tests that matter, against a real model. Installs
 * node-llama-cpp on demand outside the project (install.ts), serves ../shared/models/stories260K.gguf
 * as an OpenAI-compatible loopback endpoint (llama-endpoint.ts) and runs bench/real-model/*.real.ts,
 * then the page against it (*.real-spec.ts, Playwright; REAL_MODEL_SKIP_PAGE=1 leaves it out).
 * Skipped, with a message and exit 0, where the model file is absent. Never part of `npm test`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { ensureNodeLlamaCpp, moduleDir, modelPath, REPO_ROOT } from './install.ts';

const gguf = modelPath();
if (!existsSync(gguf)) {
  console.log(`test:real-model: skipped: the model file ${gguf} is absent (it lives in ../shared/models beside the repository; REAL_MODEL_GGUF names another)`);
  process.exit(0);
}
const dir = moduleDir();
try {
  const { installed, seconds } = ensureNodeLlamaCpp(dir);
  console.log(installed ? `test:real-model: installed node-llama-cpp into ${dir} in ${seconds.toFixed(0)} s` : `test:real-model: node-llama-cpp found in ${dir}`);
} catch (error) {
  console.error(`test:real-model: ${(error as Error).message}`);
  process.exit(1);
}
const run = spawnSync('npx', ['vitest', 'run', '--config', 'bench/real-model/vitest.config.ts', ...process.argv.slice(2)], {
  cwd: REPO_ROOT,
  stdio: 'inherit',
  env: { ...process.env, AGENTBLAME_REAL_MODEL_DIR: dir, REAL_MODEL_GGUF: gguf },
});
if (run.status !== 0 || process.env.REAL_MODEL_SKIP_PAGE === '1') process.exit(run.status ?? 1);
// The page against it: the project's build and Chromium, on a port and build folder of its own.
const page = spawnSync('npx', ['playwright', 'test', '--config', 'bench/real-model/playwright.config.ts'], {
  cwd: REPO_ROOT,
  stdio: 'inherit',
  env: { E2E_PORT: '4391', E2E_OUT_DIR: 'dist-real-model', ...process.env, AGENTBLAME_REAL_MODEL_DIR: dir, REAL_MODEL_GGUF: gguf },
});
process.exit(page.status ?? 1);

/**
 * `npm run test:real-model`: the model-step tests that matter, against a real model. Installs
 * node-llama-cpp on demand outside the project (install.ts), serves ../shared/models/stories260K.gguf
 * as an OpenAI-compatible loopback endpoint (llama-endpoint.ts) and runs bench/real-model/*.real.ts.
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
process.exit(run.status ?? 1);

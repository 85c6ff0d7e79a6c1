// `prepack`: bundles the command and its analysis worker with esbuild into dist-command/, what the
// package ships (its `bin`, agentblame, is dist-command/agentblame.mjs; docs/cli.md, "Installing the
// command"). Everything they import is inside the bundles, so the package has no dependencies: no
// Vite, Svelte or Playwright at run time. The worker's process supervisor ships as it is
// (workers/analysis.process.mjs, plain JavaScript).
import { build } from 'esbuild';
import { chmodSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(root, 'dist-command');
rmSync(out, { recursive: true, force: true });

// Bundled packages written as CommonJS still call require(): give the module one.
const requireShim = "import { createRequire as __agentblameRequire } from 'node:module'; const require = __agentblameRequire(import.meta.url);";
const common = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  absWorkingDir: root,
  logLevel: 'warning',
  legalComments: 'eof',
  // The worker is found beside the command (src/pool/node/worker-script.ts).
  define: { AGENTBLAME_PACKED: 'true' },
};
await build({ ...common, entryPoints: ['src/cli/packed.ts'], outfile: join(out, 'agentblame.mjs'), banner: { js: `#!/usr/bin/env node\n${requireShim}` } });
await build({ ...common, entryPoints: ['workers/analysis.node.ts'], outfile: join(out, 'analysis-worker.mjs'), banner: { js: requireShim } });
chmodSync(join(out, 'agentblame.mjs'), 0o755);
process.stdout.write('dist-command/: agentblame.mjs and analysis-worker.mjs bundled\n');

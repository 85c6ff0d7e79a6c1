import { defineConfig } from 'vitest/config';

// The real-model suite only (`npm run test:real-model`, never part of `npm test`): one file at a
// time, against one loopback server of the real GGUF.
export default defineConfig({
  test: {
    include: ['bench/real-model/**/*.real.ts'],
    testTimeout: 600_000,
    hookTimeout: 300_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
